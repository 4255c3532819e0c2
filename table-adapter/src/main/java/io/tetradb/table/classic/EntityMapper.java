package io.tetradb.table.classic;

import io.tetradb.table.TableEntity;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.OffsetDateTime;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * POJO ↔ {@link TableEntity}, by public getter/setter pairs as the classic SDK maps them: {@code getEmail} /
 * {@code setEmail} is the property {@code Email} ({@code isX} for booleans). Supported property types: String,
 * int/Integer, long/Long, double/Double, boolean/Boolean, Date, OffsetDateTime, UUID, byte[].
 */
final class EntityMapper {
    private static final Set<String> SYSTEM = Set.of("PartitionKey", "RowKey", "Timestamp", "Etag", "Properties",
            "Class");
    private static final Set<Class<?>> TYPES = Set.of(String.class, int.class, Integer.class, long.class, Long.class,
            double.class, Double.class, boolean.class, Boolean.class, Date.class, OffsetDateTime.class, UUID.class,
            byte[].class);
    private static final Map<Class<?>, Map<String, Method[]>> ACCESSORS = new ConcurrentHashMap<>();

    private EntityMapper() {
    }

    /** name → {getter, setter} of a class's mapped properties. */
    private static Map<String, Method[]> accessors(Class<?> type) {
        return ACCESSORS.computeIfAbsent(type, t -> {
            Map<String, Method[]> out = new LinkedHashMap<>();
            for (Method m : t.getMethods()) {
                if (Modifier.isStatic(m.getModifiers()) || m.getParameterCount() != 0) {
                    continue;
                }
                String name = m.getName().startsWith("get") ? m.getName().substring(3)
                        : m.getName().startsWith("is") && (m.getReturnType() == boolean.class
                        || m.getReturnType() == Boolean.class) ? m.getName().substring(2) : null;
                if (name == null || name.isEmpty() || SYSTEM.contains(name) || !TYPES.contains(m.getReturnType())) {
                    continue;
                }
                try {
                    Method setter = t.getMethod("set" + name, m.getReturnType());
                    out.put(name, new Method[]{m, setter});
                } catch (NoSuchMethodException readOnly) {
                    // a getter without a setter is not a stored property
                }
            }
            return out;
        });
    }

    static TableEntity toEntity(TableServiceEntity pojo) {
        if (pojo.getPartitionKey() == null || pojo.getRowKey() == null) {
            throw new StorageException(400, "PropertiesNeedValue", "PartitionKey and RowKey are required");
        }
        TableEntity e = new TableEntity(pojo.getPartitionKey(), pojo.getRowKey());
        if (pojo instanceof DynamicTableEntity d) {
            d.getProperties().forEach(e::addProperty);
            return e;
        }
        accessors(pojo.getClass()).forEach((name, m) -> {
            Object v = invoke(m[0], pojo);
            if (v != null) {
                e.addProperty(name, v);
            }
        });
        return e;
    }

    static <T extends TableServiceEntity> T fromEntity(TableEntity e, Class<T> type) {
        T pojo;
        try {
            pojo = type.getConstructor().newInstance();
        } catch (ReflectiveOperationException ex) {
            throw new IllegalArgumentException(type.getName() + " needs a public no-argument constructor", ex);
        }
        pojo.setPartitionKey(e.getPartitionKey());
        pojo.setRowKey(e.getRowKey());
        pojo.setTimestamp(e.getTimestamp() == null ? null : Date.from(e.getTimestamp().toInstant()));
        pojo.setEtag(e.getETag());
        if (pojo instanceof DynamicTableEntity d) {
            d.getProperties().putAll(e.getProperties());
            return pojo;
        }
        Map<String, Method[]> accessors = accessors(type);
        e.getProperties().forEach((name, value) -> {
            Method[] m = accessors.get(name);
            if (m != null) {
                invoke(m[1], pojo, convert(value, m[1].getParameterTypes()[0]));
            }
        });
        return pojo;
    }

    /** The stored value as the setter's type where the two differ in representation only. */
    private static Object convert(Object v, Class<?> target) {
        if (v instanceof OffsetDateTime t && target == Date.class) {
            return Date.from(t.toInstant());
        }
        if (v instanceof Integer i && (target == long.class || target == Long.class)) {
            return i.longValue();
        }
        if (v instanceof Number n && (target == double.class || target == Double.class)) {
            return n.doubleValue();
        }
        return v;
    }

    private static Object invoke(Method m, Object target, Object... args) {
        try {
            return m.invoke(target, args);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException("the accessor " + m + " failed", e.getCause());
        } catch (IllegalArgumentException e) {
            throw new StorageException(400, "InvalidInput", "the stored value of " + m.getName().substring(3)
                    + " does not fit " + m);
        }
    }
}
