package io.tetradb.core.store;

/**
 * The outcome of one item operation. {@code stored} is the item as stored (see {@link ItemCodec}) when there is one
 * to return; {@code error} explains a failed status.
 */
public record ItemResult(ItemOperation.Type type, String id, int status, byte[] stored, String etag,
                         double requestCharge, String error) {
    public boolean isSuccess() {
        return status >= 200 && status < 400;
    }
}
