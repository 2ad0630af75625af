import { describe, expect, it } from 'vitest';
import { serviceAccountUser } from './authenticated-user.js';
import { evaluateSelfSubjectReview } from './self-subject-review.js';

describe('evaluateSelfSubjectReview', () => {
  it('answers with the authenticated user, groups in order', () => {
    expect(evaluateSelfSubjectReview(serviceAccountUser('ops', 'manager'))).toEqual({
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'SelfSubjectReview',
      metadata: { creationTimestamp: null },
      status: {
        userInfo: {
          username: 'system:serviceaccount:ops:manager',
          groups: ['system:serviceaccounts', 'system:serviceaccounts:ops', 'system:authenticated'],
        },
      },
    });
  });

  it('carries the uid when the user has one', () => {
    const review = evaluateSelfSubjectReview({ name: 'jane', uid: '42', groups: [] });
    expect(review.status.userInfo).toEqual({ username: 'jane', uid: '42', groups: [] });
  });
});
