package io.tetradb.core.storage;

/** Another process (or another open store in this one) holds the data directory's lock. */
public class DataDirectoryInUseException extends StorageException {
    public DataDirectoryInUseException(String message, Throwable cause) {
        super(message, cause);
    }
}
