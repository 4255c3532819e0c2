package io.tetradb.table.classic;

import java.util.Date;

/**
 * The base class of POJO entities: the keys, Timestamp and ETag. Subclasses add properties as getter/setter pairs
 * ({@code getEmail}/{@code setEmail} is the property {@code Email}); they need a public no-argument constructor.
 */
public class TableServiceEntity {
    private String partitionKey;
    private String rowKey;
    private Date timestamp;
    private String etag;

    public TableServiceEntity() {
    }

    public TableServiceEntity(String partitionKey, String rowKey) {
        this.partitionKey = partitionKey;
        this.rowKey = rowKey;
    }

    public String getPartitionKey() {
        return partitionKey;
    }

    public void setPartitionKey(String partitionKey) {
        this.partitionKey = partitionKey;
    }

    public String getRowKey() {
        return rowKey;
    }

    public void setRowKey(String rowKey) {
        this.rowKey = rowKey;
    }

    public Date getTimestamp() {
        return timestamp;
    }

    public void setTimestamp(Date timestamp) {
        this.timestamp = timestamp;
    }

    public String getEtag() {
        return etag;
    }

    public void setEtag(String etag) {
        this.etag = etag;
    }
}
