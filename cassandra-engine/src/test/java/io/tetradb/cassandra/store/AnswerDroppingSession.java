package io.tetradb.cassandra.store;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.context.DriverContext;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.metadata.Metadata;
import com.datastax.oss.driver.api.core.metrics.Metrics;
import com.datastax.oss.driver.api.core.servererrors.CASWriteUnknownException;
import com.datastax.oss.driver.api.core.session.Request;
import com.datastax.oss.driver.api.core.type.reflect.GenericType;

import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A driver session that loses the answer to the next conditional batch, as a CAS write timeout does: the batch is
 * sent to the real cluster (or not, {@link Drop#BEFORE_SENDING}), then something else may happen (another writer's
 * apply), and the caller gets {@link CASWriteUnknownException}. Everything else goes to the real session.
 */
final class AnswerDroppingSession implements CqlSession {
    enum Drop { AFTER_APPLYING, BEFORE_SENDING }

    private record Armed(Drop drop, Runnable meanwhile) {
    }

    private final CqlSession real;
    private final AtomicReference<Armed> armed = new AtomicReference<>();

    AnswerDroppingSession(CqlSession real) {
        this.real = real;
    }

    /** The next batch's answer is lost; {@code meanwhile} runs between the batch and the timeout. */
    void dropNextBatch(Drop drop, Runnable meanwhile) {
        armed.set(new Armed(drop, meanwhile));
    }

    @Override
    public <RequestT extends Request, ResultT> ResultT execute(RequestT request, GenericType<ResultT> resultType) {
        Armed a = request instanceof BatchStatement ? armed.getAndSet(null) : null;
        if (a == null) {
            return real.execute(request, resultType);
        }
        if (a.drop() == Drop.AFTER_APPLYING) {
            real.execute(request, resultType);
        }
        a.meanwhile().run();
        throw new CASWriteUnknownException(null, DefaultConsistencyLevel.SERIAL, 1, 2);
    }

    @Override
    public String getName() {
        return real.getName();
    }

    @Override
    public Metadata getMetadata() {
        return real.getMetadata();
    }

    @Override
    public boolean isSchemaMetadataEnabled() {
        return real.isSchemaMetadataEnabled();
    }

    @Override
    public CompletionStage<Metadata> setSchemaMetadataEnabled(Boolean newValue) {
        return real.setSchemaMetadataEnabled(newValue);
    }

    @Override
    public CompletionStage<Metadata> refreshSchemaAsync() {
        return real.refreshSchemaAsync();
    }

    @Override
    public CompletionStage<Boolean> checkSchemaAgreementAsync() {
        return real.checkSchemaAgreementAsync();
    }

    @Override
    public DriverContext getContext() {
        return real.getContext();
    }

    @Override
    public Optional<CqlIdentifier> getKeyspace() {
        return real.getKeyspace();
    }

    @Override
    public Optional<Metrics> getMetrics() {
        return real.getMetrics();
    }

    @Override
    public CompletionStage<Void> closeFuture() {
        return real.closeFuture();
    }

    @Override
    public CompletionStage<Void> closeAsync() {
        return real.closeFuture(); // the real session belongs to the test cluster
    }

    @Override
    public CompletionStage<Void> forceCloseAsync() {
        return real.closeFuture();
    }
}
