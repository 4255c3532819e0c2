/**
 * Cooperative cancellation of one core call: {@link io.tetradb.core.cancel.CallStop} (checked every N rows by the
 * query and read loops), the face's {@link io.tetradb.core.cancel.StopSignal} and the one exception,
 * {@link io.tetradb.core.cancel.CallStoppedException}, that each face maps to its convention.
 */
package io.tetradb.core.cancel;
