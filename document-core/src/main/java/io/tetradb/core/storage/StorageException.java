package io.tetradb.core.storage;

/** The engine failed (I/O error, corruption); the operation did not happen. */
public class StorageException extends RuntimeException {
    public StorageException(String message, Throwable cause) {
        super(message, cause);
    }
}
