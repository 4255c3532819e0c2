package io.tetradb.document;

import java.util.ArrayList;
import java.util.List;

/** A query text with its parameters, as in azure-cosmos. */
public final class SqlQuerySpec {
    private String queryText;
    private List<SqlParameter> parameters;

    public SqlQuerySpec(String queryText, SqlParameter... parameters) {
        this(queryText, List.of(parameters));
    }

    public SqlQuerySpec(String queryText, List<SqlParameter> parameters) {
        this.queryText = queryText;
        this.parameters = new ArrayList<>(parameters);
    }

    public String getQueryText() {
        return queryText;
    }

    public SqlQuerySpec setQueryText(String queryText) {
        this.queryText = queryText;
        return this;
    }

    public List<SqlParameter> getParameters() {
        return parameters;
    }

    public SqlQuerySpec setParameters(List<SqlParameter> parameters) {
        this.parameters = new ArrayList<>(parameters);
        return this;
    }
}
