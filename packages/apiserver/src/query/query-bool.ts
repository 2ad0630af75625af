/**
 * A boolean query parameter as kube-apiserver reads it (apimachinery's
 * `runtime.Convert_Slice_string_To_bool`, pkg/runtime/conversion.go): absent is false; a first
 * value of `0` or `false` in any case is false; anything else, including an empty value, is
 * true. So `watch=True`, `watch=1`, `watch=t` and `watch=` all start a watch. This is more
 * lenient than Go's `strconv.ParseBool` (which refuses `yes`); kube never refuses a boolean.
 */
export function queryBool(query: URLSearchParams, name: string): boolean {
  const value = query.get(name);
  if (value === null) return false;
  return value !== '0' && value.toLowerCase() !== 'false';
}
