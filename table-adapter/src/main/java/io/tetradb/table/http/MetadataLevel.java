package io.tetradb.table.http;

import java.util.Locale;

/** How much OData metadata a JSON answer carries, from {@code $format} or {@code Accept}. */
enum MetadataLevel {
    NONE("application/json;odata=nometadata;streaming=true;charset=utf-8"),
    MINIMAL("application/json;odata=minimalmetadata;streaming=true;charset=utf-8"),
    FULL("application/json;odata=fullmetadata;streaming=true;charset=utf-8");

    final String contentType;

    MetadataLevel(String contentType) {
        this.contentType = contentType;
    }

    static MetadataLevel of(ApiRequest r) {
        String f = r.param("$format");
        if (f == null) {
            f = r.header("Accept");
        }
        if (f == null) {
            return MINIMAL;
        }
        f = f.toLowerCase(Locale.ROOT);
        if (f.contains("odata=nometadata")) {
            return NONE;
        } else if (f.contains("odata=fullmetadata")) {
            return FULL;
        }
        return MINIMAL;
    }
}
