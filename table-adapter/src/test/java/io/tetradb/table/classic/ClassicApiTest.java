package io.tetradb.table.classic;

import io.tetradb.testing.SharedExamples;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tetradb.table.TableServiceClient;
import io.tetradb.table.TableServiceClientBuilder;
import io.tetradb.table.classic.TableQuery.Operators;
import io.tetradb.table.classic.TableQuery.QueryComparisons;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The classic API with POJO entities, on the seed scenario {@code customers-table.jsonl}. */
class ClassicApiTest {

    /** The classic samples' customer entity: properties are getter/setter pairs. */
    public static class CustomerEntity extends TableServiceEntity {
        private String email;
        private String phoneNumber;
        private int age;
        private Date joined;
        private Long balance;

        public CustomerEntity() {
        }

        public CustomerEntity(String lastName, String firstName) {
            super(lastName, firstName);
        }

        public String getEmail() {
            return email;
        }

        public void setEmail(String email) {
            this.email = email;
        }

        public String getPhoneNumber() {
            return phoneNumber;
        }

        public void setPhoneNumber(String phoneNumber) {
            this.phoneNumber = phoneNumber;
        }

        public int getAge() {
            return age;
        }

        public void setAge(int age) {
            this.age = age;
        }

        public Date getJoined() {
            return joined;
        }

        public void setJoined(Date joined) {
            this.joined = joined;
        }

        public Long getBalance() {
            return balance;
        }

        public void setBalance(Long balance) {
            this.balance = balance;
        }
    }

    @Test
    void customersWithPojos(@TempDir Path dir) throws Exception {
        try (TableServiceClient service = new TableServiceClientBuilder().dataDirectory(dir).buildClient()) {
            CloudTable people = new CloudTableClient(service).getTableReference("people");
            assertTrue(people.createIfNotExists(10000));
            assertFalse(people.createIfNotExists(10000));
            assertTrue(people.exists());

            ObjectMapper m = new ObjectMapper();
            for (String line : Files.readAllLines(SharedExamples.dir().resolve("customers-table.jsonl"))) {
                JsonNode n = m.readTree(line);
                CustomerEntity c = new CustomerEntity(n.get("PartitionKey").asText(), n.get("RowKey").asText());
                c.setEmail(n.get("Email").asText());
                c.setPhoneNumber(n.get("PhoneNumber").asText());
                c.setAge(n.get("Age").asInt());
                if (n.has("Joined")) {
                    c.setJoined(Date.from(OffsetDateTime.parse(n.get("Joined").get("value").asText()).toInstant()));
                }
                if (n.has("Balance")) {
                    c.setBalance(Long.parseLong(n.get("Balance").get("value").asText()));
                }
                TableResult r = people.execute(TableOperation.insert(c));
                assertEquals(201, r.getHttpStatusCode());
                assertNotNull(c.getEtag());
            }

            CustomerEntity ben = people.execute(TableOperation.retrieve("Smith", "Ben", CustomerEntity.class))
                    .getResultAsType();
            assertEquals("ben@contoso.com", ben.getEmail());
            assertEquals(42, ben.getAge());
            assertEquals(Date.from(OffsetDateTime.parse("2016-03-01T09:30:00.123Z").toInstant()), ben.getJoined());
            assertNull(ben.getBalance());
            assertEquals(9007199254740993L, people.execute(TableOperation.retrieve("Jones", "Ben", CustomerEntity.class))
                    .<CustomerEntity>getResultAsType().getBalance());
            assertEquals(404, people.execute(TableOperation.retrieve("Smith", "Nobody", CustomerEntity.class))
                    .getHttpStatusCode());

            String filter = TableQuery.combineFilters(
                    TableQuery.generateFilterCondition("PartitionKey", QueryComparisons.EQUAL, "Smith"),
                    Operators.AND,
                    TableQuery.generateFilterCondition("RowKey", QueryComparisons.GREATER_THAN_OR_EQUAL, "B"));
            List<String> names = new ArrayList<>();
            people.execute(TableQuery.from(CustomerEntity.class).where(filter)).forEach(c -> names.add(c.getRowKey()));
            assertEquals(List.of("Ben", "Jeff"), names);
            List<String> older = new ArrayList<>();
            people.execute(TableQuery.from(CustomerEntity.class).where(
                    TableQuery.generateFilterCondition("Age", QueryComparisons.GREATER_THAN, 40)))
                    .forEach(c -> older.add(c.getPartitionKey() + "/" + c.getRowKey()));
            assertEquals(List.of("Jones/Ben", "Smith/Ben"), older);

            // optimistic concurrency through the POJO's ETag
            ben.setAge(43);
            people.execute(TableOperation.replace(ben));
            CustomerEntity stale = people.execute(TableOperation.retrieve("Smith", "Jeff", CustomerEntity.class))
                    .getResultAsType();
            CustomerEntity fresh = people.execute(TableOperation.retrieve("Smith", "Jeff", CustomerEntity.class))
                    .getResultAsType();
            fresh.setAge(36);
            people.execute(TableOperation.merge(fresh));
            stale.setAge(99);
            StorageException conflict = assertThrows(StorageException.class, () -> people.execute(TableOperation.replace(stale)));
            assertEquals(412, conflict.getHttpStatusCode());
            assertEquals(36, people.execute(TableOperation.retrieve("Smith", "Jeff", CustomerEntity.class))
                    .<CustomerEntity>getResultAsType().getAge());

            // a batch of inserts in one PartitionKey is atomic
            TableBatchOperation batch = new TableBatchOperation();
            batch.insert(new CustomerEntity("Smith", "Carol"));
            batch.insert(new CustomerEntity("Smith", "Ben"));
            StorageException failed = assertThrows(StorageException.class, () -> people.execute(batch));
            assertEquals(409, failed.getHttpStatusCode());
            assertEquals(404, people.execute(TableOperation.retrieve("Smith", "Carol")).getHttpStatusCode());
            TableBatchOperation ok = new TableBatchOperation();
            ok.insert(new CustomerEntity("Smith", "Carol"));
            ok.insertOrMerge(new CustomerEntity("Smith", "Dave"));
            assertEquals(2, people.execute(ok).size());

            DynamicTableEntity dyn = people.execute(TableOperation.retrieve("Smith", "Alice")).getResultAsType();
            assertEquals("alice@contoso.com", dyn.getProperties().get("Email"));
            people.execute(TableOperation.delete(dyn));
            assertEquals(404, people.execute(TableOperation.retrieve("Smith", "Alice")).getHttpStatusCode());
            assertTrue(people.deleteIfExists());
            assertFalse(people.exists());
        }
    }

    @Test
    void filterConditionsForEveryType() {
        assertEquals("A eq 'it''s'", TableQuery.generateFilterCondition("A", QueryComparisons.EQUAL, "it's"));
        assertEquals("A gt 5L", TableQuery.generateFilterCondition("A", QueryComparisons.GREATER_THAN, 5L));
        assertEquals("A le 2.0", TableQuery.generateFilterCondition("A", QueryComparisons.LESS_THAN_OR_EQUAL, 2.0));
        assertEquals("A eq X'01ff'", TableQuery.generateFilterCondition("A", QueryComparisons.EQUAL, new byte[]{1, (byte) 0xff}));
        assertEquals("A eq datetime'2016-03-01T09:30Z'", TableQuery.generateFilterCondition("A", QueryComparisons.EQUAL,
                Date.from(OffsetDateTime.parse("2016-03-01T09:30:00Z").toInstant())));
        assertEquals("not (A eq true)", TableQuery.combineFilters(
                TableQuery.generateFilterCondition("A", QueryComparisons.EQUAL, true), Operators.NOT, ""));
    }
}
