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

    private final VertexFeatures vertex = new VertexFeatures() {
        private final VertexPropertyFeatures properties = new TetraVertexPropertyFeatures();

        @Override
        public VertexProperty.Cardinality getCardinality(String key) {
            return defaultCardinality;
        }

        @Override
        public VertexPropertyFeatures properties() {
            return properties;
        }

        @Override
        public boolean supportsNullPropertyValues() {
            return false;
        }

        @Override
        public boolean supportsNumericIds() {
            return false;
        }

        @Override
        public boolean supportsStringIds() {
            return false;
        }

        @Override
        public boolean supportsUuidIds() {
            return false;
        }

        @Override
        public boolean supportsAnyIds() {
            return false;
        }

        @Override
        public boolean willAllowId(Object id) {
            return isAddress(id);
        }
    };

    private final EdgeFeatures edge = new EdgeFeatures() {
        private final EdgePropertyFeatures properties = new EdgePropertyFeatures() {
            @Override
            public boolean supportsSerializableValues() {
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
        };

        @Override
        public EdgePropertyFeatures properties() {
            return properties;
        }

        @Override
        public boolean supportsNullPropertyValues() {
            return false;
        }

        @Override
        public boolean supportsNumericIds() {
            return false;
        }

        @Override
        public boolean supportsStringIds() {
            return false;
        }

        @Override
        public boolean supportsUuidIds() {
            return false;
        }

        @Override
        public boolean supportsAnyIds() {
            return false;
        }

        @Override
        public boolean willAllowId(Object id) {
            return isAddress(id);
        }
    };

    /** A user-supplied id must be {@code [pk, id]}. */
    private static boolean isAddress(Object id) {
        return id instanceof Collection<?> c && c.size() == 2
                && ElementIds.isPartitionKeyValue(c.iterator().next())
                && new java.util.ArrayList<>(c).get(1) instanceof String;
    }

    private static final class TetraVertexPropertyFeatures implements VertexPropertyFeatures {
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

        @Override
        public boolean supportsSerializableValues() {
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
