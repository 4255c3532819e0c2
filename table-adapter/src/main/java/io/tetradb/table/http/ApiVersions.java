package io.tetradb.table.http;

import io.tetradb.table.model.TableException;

import java.util.Set;

/**
 * The storage service versions ({@code x-ms-version}) Azure Table storage knows. Another value is 400
 * {@code InvalidHeaderValue}, as Azure answers; a version before 2013-08-15 is valid but has no JSON format, which
 * is all this endpoint speaks: 415 {@code JsonFormatNotSupported}.
 */
final class ApiVersions {
    /** What answers carry when the request names no version. */
    static final String DEFAULT = "2019-02-02";
    private static final String FIRST_WITH_JSON = "2013-08-15";
    private static final Set<String> KNOWN = Set.of(
            "2009-04-14", "2009-07-17", "2009-09-19", "2011-08-18", "2012-02-12", "2013-08-15", "2014-02-14",
            "2015-02-21", "2015-04-05", "2015-07-08", "2015-12-11", "2016-05-31", "2017-04-17", "2017-07-29",
            "2017-11-09", "2018-03-28", "2018-11-09", "2019-02-02", "2019-07-07", "2019-10-10", "2019-12-12",
            "2020-02-10", "2020-04-08", "2020-06-12", "2020-08-04", "2020-10-02", "2020-12-06", "2021-02-12",
            "2021-04-10", "2021-06-08", "2021-08-06", "2021-10-04", "2021-12-02", "2022-11-02", "2023-01-03",
            "2023-08-03", "2023-11-03", "2024-02-04", "2024-05-04", "2024-08-04", "2024-11-04", "2025-01-05",
            "2025-05-05", "2025-07-05", "2025-11-05", "2026-02-06", "2026-04-06", "2026-06-06");

    private ApiVersions() {
    }

    /** The version a request names (null: none, the default applies), checked. */
    static String check(String version) {
        if (version == null) {
            return null;
        }
        if (!KNOWN.contains(version)) {
            throw new TableException(400, "InvalidHeaderValue", "The value for one of the HTTP headers is not in "
                    + "the correct format. HeaderName: x-ms-version, HeaderValue: " + abbreviate(version));
        }
        if (version.compareTo(FIRST_WITH_JSON) < 0) {
            throw new TableException(415, "JsonFormatNotSupported", "JSON format is not supported (x-ms-version "
                    + version + " predates 2013-08-15).");
        }
        return version;
    }

    private static String abbreviate(String s) {
        return s.length() > 40 ? s.substring(0, 40) + "..." : s;
    }
}
