package io.tetradb.server.gremlin.security;

import org.apache.tinkerpop.gremlin.groovy.jsr223.GroovyCustomizer;
import org.codehaus.groovy.ast.AnnotatedNode;
import org.codehaus.groovy.ast.ClassCodeVisitorSupport;
import org.codehaus.groovy.ast.ClassNode;
import org.codehaus.groovy.ast.ImportNode;
import org.codehaus.groovy.ast.ModuleNode;
import org.codehaus.groovy.classgen.GeneratorContext;
import org.codehaus.groovy.control.CompilePhase;
import org.codehaus.groovy.control.SourceUnit;
import org.codehaus.groovy.control.customizers.CompilationCustomizer;
import org.codehaus.groovy.syntax.SyntaxException;

import java.util.ArrayList;
import java.util.List;

/**
 * Refuses every annotation in a Groovy Gremlin script, right after parsing: annotations are how a script would
 * run code at compile time ({@code @ASTTest}), fetch code from the network ({@code @Grab}) or switch the sandbox
 * off for a method ({@code @CompileDynamic}), all before the type checker sees it.
 */
public final class AnnotationRefusal implements GroovyCustomizer {
    @Override
    public CompilationCustomizer create() {
        return new CompilationCustomizer(CompilePhase.CONVERSION) {
            @Override
            public void call(SourceUnit source, GeneratorContext context, ClassNode classNode) {
                ModuleNode module = source.getAST();
                List<ImportNode> imports = new ArrayList<>(module.getImports());
                imports.addAll(module.getStarImports());
                imports.addAll(module.getStaticImports().values());
                imports.addAll(module.getStaticStarImports().values());
                for (ImportNode i : imports) {
                    refuseAnnotated(source, i);
                }
                if (module.getPackage() != null) {
                    refuseAnnotated(source, module.getPackage());
                }
                new ClassCodeVisitorSupport() {
                    @Override
                    protected SourceUnit getSourceUnit() {
                        return source;
                    }

                    @Override
                    public void visitAnnotations(AnnotatedNode node) {
                        refuseAnnotated(source, node);
                    }
                }.visitClass(classNode);
            }
        };
    }

    private static void refuseAnnotated(SourceUnit source, AnnotatedNode node) {
        if (!node.getAnnotations().isEmpty()) {
            var annotation = node.getAnnotations().get(0);
            source.getErrorCollector().addErrorAndContinue(new SyntaxException(
                    "annotations are not allowed in a Gremlin script: @" + annotation.getClassNode().getName(),
                    annotation.getLineNumber(), annotation.getColumnNumber()), source);
        }
    }
}
