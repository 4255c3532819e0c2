package io.tetradb.graph.structure;

import org.apache.tinkerpop.gremlin.structure.Graph;
import org.apache.tinkerpop.gremlin.structure.VertexProperty;
import org.apache.tinkerpop.gremlin.structure.util.StringFactory;

import java.util.Collection;

/**
 * What TetraGraph supports, declared honestly: persistence and user-supplied {@code [pk, id]} ids (a custom id type);
 * no transactions (each element write is atomic in the core), no graph variables, no OLAP computer, no null property
 * values, no arrays or serializable objects as values.
 */
public final class TetraFeatures implements Graph.Features {
    private final VertexProperty.Cardinality defaultCardinality;

    public TetraFeatures(VertexProperty.Cardinality defaultCardinality) {
        this.defaultCardinality = defaultCardinality;
    }

    private final GraphFeatures graph = new GraphFeatures() {
        @Override
        public boolean supportsComputer() {
            return false;
        }

        @Override
        public boolean supportsTransactions() {
            return false;
        }

        @Override
        public boolean supportsThreadedTransactions() {
            return false;
        }

        @Override
        public boolean supportsConcurrentAccess() {
            return false;
        }

        @Override
        public VariableFeatures variables() {
            return new VariableFeatures() {
                @Override
                public boolean supportsVariables() {
                    return false;
                }

                @Override
                public boolean supportsBooleanValues() {
                    return false;
                }

                @Override
                public boolean supportsByteValues() {
                    return false;
                }

                @Override
                public boolean supportsDoubleValues() {
                    return false;
                }

                @Override
                public boolean supportsFloatValues() {
                    return false;
                }

                @Override
                public boolean supportsIntegerValues() {
                    return false;
                }

                @Override
                public boolean supportsLongValues() {
                    return false;
                }

                @Override
                public boolean supportsMapValues() {
                    return false;
                }

                @Override
                public boolean supportsMixedListValues() {
                    return false;
                }

                @Override
                public boolean supportsBooleanArrayValues() {
                    return false;
                }

                @Override
                public boolean supportsByteArrayValues() {
                    return false;
                }

                @Override
                public boolean supportsDoubleArrayValues() {
                    return false;
                }

                @Override
                public boolean supportsFloatArrayValues() {
                    return false;
                }

                @Override
                public boolean supportsIntegerArrayValues() {
                    return false;
                }

                @Override
                public boolean supportsStringArrayValues() {
                    return false;
                }

                @Override
                public boolean supportsLongArrayValues() {
                    return false;
                }

                @Override
                public boolean supportsSerializableValues() {
                    return false;
                }

                @Override
                public boolean supportsStringValues() {
                    return false;
                }

                @Override
                public boolean supportsUniformListValues() {
                    return false;
                }
            };
        }
    };

    private final VertexFeatures vertex = new TetraVertexFeatures();
    private final EdgeFeatures edge = new TetraEdgeFeatures();

    private final class TetraVertexFeatures implements VertexFeatures, AddressIds {
        private final VertexPropertyFeatures properties = new TetraVertexPropertyFeatures();

        @Override
        public VertexProperty.Cardinality getCardinality(String key) {
            return defaultCardinality;
        }

        @Override
        public VertexPropertyFeatures properties() {
            return properties;
        }
    }

    private static final class TetraEdgeFeatures implements EdgeFeatures, AddressIds {
        private final EdgePropertyFeatures properties = new TetraEdgePropertyFeatures();

        @Override
        public EdgePropertyFeatures properties() {
            return properties;
        }
    }

    /** What vertices and edges share: a user-supplied id must be {@code [pk, id]}; no null property values. */
    private interface AddressIds extends ElementFeatures {
        @Override
        default boolean supportsNullPropertyValues() {
            return false;
        }

        @Override
        default boolean supportsNumericIds() {
            return false;
        }

        @Override
        default boolean supportsStringIds() {
            return false;
        }

        @Override
        default boolean supportsUuidIds() {
            return false;
        }

        @Override
        default boolean supportsAnyIds() {
            return false;
        }

        @Override
        default boolean willAllowId(Object id) {
            return id instanceof Collection<?> c && c.size() == 2
                    && ElementIds.isPartitionKeyValue(c.iterator().next())
                    && new java.util.ArrayList<>(c).get(1) instanceof String;
        }
    }

    /** What vertex and edge properties share: no arrays and no serializable objects as values. */
    private interface ScalarValues extends PropertyFeatures {
        @Override
        default boolean supportsSerializableValues() {
            return false;
        }

        @Override
        default boolean supportsBooleanArrayValues() {
            return false;
        }

        @Override
        default boolean supportsByteArrayValues() {
            return false;
        }

        @Override
        default boolean supportsDoubleArrayValues() {
            return false;
        }

        @Override
        default boolean supportsFloatArrayValues() {
            return false;
        }

        @Override
        default boolean supportsIntegerArrayValues() {
            return false;
        }

        @Override
        default boolean supportsStringArrayValues() {
            return false;
        }

        @Override
        default boolean supportsLongArrayValues() {
            return false;
        }
    }

    private static final class TetraEdgePropertyFeatures implements EdgePropertyFeatures, ScalarValues {
    }

    private static final class TetraVertexPropertyFeatures implements VertexPropertyFeatures, ScalarValues {
        @Override
        public boolean supportsNullPropertyValues() {
            return false;
        }

        /** A vertex property's id is a string: its entry's {@code id}. */
        @Override
        public boolean supportsUserSuppliedIds() {
            return true;
        }

        @Override
        public boolean supportsNumericIds() {
            return false;
        }

        @Override
        public boolean supportsUuidIds() {
            return false;
        }

        @Override
        public boolean supportsCustomIds() {
            return false;
        }

        @Override
        public boolean willAllowId(Object id) {
            return id instanceof String;
        }

        @Override
        public boolean supportsAnyIds() {
            return false;
        }
    }

    @Override
    public GraphFeatures graph() {
        return graph;
    }

    @Override
    public VertexFeatures vertex() {
        return vertex;
    }

    @Override
    public EdgeFeatures edge() {
        return edge;
    }

    @Override
    public String toString() {
        return StringFactory.featureString(this);
    }
}
