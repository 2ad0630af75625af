export { knownKinds } from './kind-registry.js';
export {
  decodeKubernetesProtobuf,
  isProtobufContentType,
  protobufMagic,
  protobufMediaType,
} from './kubernetes-protobuf.js';
