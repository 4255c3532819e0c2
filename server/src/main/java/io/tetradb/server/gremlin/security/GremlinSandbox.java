package io.tetradb.server.gremlin.security;

import org.apache.tinkerpop.gremlin.groovy.jsr223.GremlinGroovyScriptEngine;
import org.codehaus.groovy.ast.ASTNode;
import org.codehaus.groovy.ast.ClassCodeVisitorSupport;
import org.codehaus.groovy.ast.ClassHelper;
import org.codehaus.groovy.ast.ClassNode;
import org.codehaus.groovy.ast.DynamicVariable;
import org.codehaus.groovy.ast.FieldNode;
import org.codehaus.groovy.ast.MethodNode;
import org.codehaus.groovy.ast.ModuleNode;
import org.codehaus.groovy.ast.Parameter;
import org.codehaus.groovy.ast.expr.AttributeExpression;
import org.codehaus.groovy.ast.expr.CastExpression;
import org.codehaus.groovy.ast.expr.ClassExpression;
import org.codehaus.groovy.ast.expr.ClosureExpression;
import org.codehaus.groovy.ast.expr.DeclarationExpression;
import org.codehaus.groovy.ast.expr.Expression;
import org.codehaus.groovy.ast.expr.MethodCall;
import org.codehaus.groovy.ast.expr.MethodPointerExpression;
import org.codehaus.groovy.ast.expr.PropertyExpression;
import org.codehaus.groovy.ast.expr.TupleExpression;
import org.codehaus.groovy.ast.expr.VariableExpression;
import org.codehaus.groovy.control.SourceUnit;
import org.codehaus.groovy.transform.sc.StaticCompilationMetadataKeys;
import org.codehaus.groovy.transform.stc.ExtensionMethodNode;
import org.codehaus.groovy.transform.stc.StaticTypeCheckingVisitor;
import org.codehaus.groovy.transform.stc.TypeCheckingExtension;

import java.util.Map;
import java.util.Set;

/**
 * The static type checking extension that every Groovy Gremlin script is compiled with (under
 * {@code @CompileStatic}, so the method checked is the method called): each method, constructor and property a
 * script reaches must be on the {@link SandboxRules allow-list}, every type it names too, and no closure may be
 * handed to a Gremlin step (Cosmos DB's Gremlin API accepts no lambdas either). Bound variables ({@code g},
 * {@code graph}, request bindings, session variables) get the types of their values, as in TinkerPop's own sandbox.
 */
public final class GremlinSandbox extends TypeCheckingExtension {
    /** Properties of every script ({@code this.binding}, {@code this.class}…): the way out of the script. */
    private static final Set<String> SCRIPT_PROPERTIES = Set.of("binding", "class", "metaClass", "properties");

    /** The script being checked. */
    private ModuleNode module;

    public GremlinSandbox(StaticTypeCheckingVisitor visitor) {
        super(visitor);
    }

    @Override
    public boolean beforeVisitClass(ClassNode node) {
        module = node.getModule();
        return false;
    }

    @Override
    public boolean handleUnresolvedVariableExpression(VariableExpression variable) {
        if (SCRIPT_PROPERTIES.contains(variable.getName())) {
            return false;
        }
        ClassNode type = boundTypes().get(variable.getName());
        // a variable the script assigns without declaring it (a session variable): an Object until it is bound
        storeType(variable, type != null ? type : ClassHelper.OBJECT_TYPE);
        return true;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, ClassNode> boundTypes() {
        Object types = GremlinGroovyScriptEngine.COMPILE_OPTIONS.get()
                .get(GremlinGroovyScriptEngine.COMPILE_OPTIONS_VAR_TYPES);
        return types instanceof Map<?, ?> map ? (Map<String, ClassNode>) map : Map.of();
    }

    @Override
    public void onMethodSelection(Expression call, MethodNode method) {
        MethodNode target = method instanceof ExtensionMethodNode extension ? extension.getExtensionMethodNode() : method;
        if (!SandboxRules.allowedMethod(target) && !declaredByScript(target)) {
            refuse("not allowed in a Gremlin script: " + describe(target), call);
            return;
        }
        if (call instanceof MethodCall methodCall && SandboxRules.isGremlin(target.getDeclaringClass())
                && passesLambda(methodCall.getArguments())) {
            refuse("lambdas are not supported in traversals: " + target.getName() + "()", call);
        }
    }

    /** A method the script declares itself ({@code def f(x) {…}}): its body is checked like the rest. */
    private boolean declaredByScript(MethodNode method) {
        ClassNode owner = method.getDeclaringClass();
        return owner != null && owner.getModule() != null && owner.isScript()
                && owner.getModule() == module
                && !owner.getName().startsWith("groovy.");
    }

    private boolean passesLambda(Expression arguments) {
        if (!(arguments instanceof TupleExpression tuple)) {
            return false;
        }
        for (Expression argument : tuple.getExpressions()) {
            if (argument instanceof ClosureExpression || argument instanceof MethodPointerExpression) {
                return true;
            }
            ClassNode type = getType(argument);
            if (type != null && (type.getName().equals("groovy.lang.Closure")
                    || type.isDerivedFrom(ClassHelper.CLOSURE_TYPE)
                    || type.getName().startsWith("java.util.function.")
                    || type.getName().equals("java.util.Comparator")
                    || type.getName().startsWith("org.apache.tinkerpop.gremlin.util.function."))) {
                return true;
            }
        }
        return false;
    }

    /** Properties, casts, declarations, method pointers and class declarations, once a class is type checked. */
    @Override
    public void afterVisitClass(ClassNode node) {
        if (!node.isScript()) {
            refuse("a Gremlin script may not declare classes: " + node.getName(), node);
            return;
        }
        new ClassCodeVisitorSupport() {
            @Override
            protected SourceUnit getSourceUnit() {
                return node.getModule().getContext();
            }

            @Override
            public void visitPropertyExpression(PropertyExpression expression) {
                super.visitPropertyExpression(expression);
                checkProperty(expression);
            }

            @Override
            public void visitClassExpression(ClassExpression expression) {
                super.visitClassExpression(expression);
                // the server's own classes, e.g. its strategies for withoutStrategies(...)
                if (expression.getType().getName().startsWith("io.tetradb.")) {
                    refuse("type not allowed in a Gremlin script: " + expression.getType().getName(), expression);
                }
            }

            @Override
            public void visitAttributeExpression(AttributeExpression expression) {
                super.visitAttributeExpression(expression);
                refuse("direct field access (.@) is not allowed in a Gremlin script", expression);
            }

            @Override
            public void visitMethodPointerExpression(MethodPointerExpression expression) {
                super.visitMethodPointerExpression(expression);
                refuse("method pointers are not allowed in a Gremlin script", expression);
            }

            @Override
            public void visitCastExpression(CastExpression expression) {
                super.visitCastExpression(expression);
                checkNamedType(expression.getType(), expression);
            }

            @Override
            public void visitDeclarationExpression(DeclarationExpression expression) {
                super.visitDeclarationExpression(expression);
                if (!expression.isMultipleAssignmentDeclaration()) {
                    checkNamedType(expression.getVariableExpression().getOriginType(), expression);
                }
            }

            @Override
            public void visitVariableExpression(VariableExpression expression) {
                super.visitVariableExpression(expression);
                if (expression.getAccessedVariable() instanceof DynamicVariable
                        && SCRIPT_PROPERTIES.contains(expression.getName())) {
                    refuse("'" + expression.getName() + "' is not available in a Gremlin script", expression);
                }
            }

            @Override
            public void visitField(FieldNode field) {
                super.visitField(field);
                checkNamedType(field.getOriginType(), field);
            }

            @Override
            protected void visitConstructorOrMethod(MethodNode method, boolean isConstructor) {
                super.visitConstructorOrMethod(method, isConstructor);
                if (!isConstructor && !method.isScriptBody() && !method.isSynthetic()) {
                    checkNamedType(method.getReturnType(), method);
                    for (Parameter p : method.getParameters()) {
                        checkNamedType(p.getOriginType(), method);
                    }
                }
            }
        }.visitClass(node);
    }

    /**
     * A property is a getter call in disguise ({@code x.class}, {@code file.text}): allowed on a map (its keys), as
     * a static field of an allowed type ({@code T.id}), or when the getter is on the allow-list.
     */
    private void checkProperty(PropertyExpression expression) {
        if (expression.isSpreadSafe()) {
            refuse("spread property access (*.) is not allowed in a Gremlin script", expression);
            return;
        }
        String name = expression.getPropertyAsString();
        ClassNode owner = expression.getObjectExpression().getNodeMetaData(StaticCompilationMetadataKeys.PROPERTY_OWNER);
        if (owner == null) {
            owner = getType(expression.getObjectExpression());
        }
        if (owner == null || name == null) {
            refuse("this property is not allowed in a Gremlin script", expression);
            return;
        }
        if (SCRIPT_PROPERTIES.contains(name)) {
            refuse("'" + name + "' is not available in a Gremlin script", expression);
            return;
        }
        if (owner.isDerivedFrom(ClassHelper.MAP_TYPE) || owner.implementsInterface(ClassHelper.MAP_TYPE)
                || owner.equals(ClassHelper.MAP_TYPE)) {
            return;
        }
        ClassNode type = owner.equals(ClassHelper.CLASS_Type) && owner.getGenericsTypes() != null
                ? owner.getGenericsTypes()[0].getType() : owner;
        FieldNode field = type.getField(name);
        if (field != null && field.isPublic() && SandboxRules.allowedType(type)) {
            // constants only: a public static field that is not final is a setting of the whole server
            if (!field.isFinal()) {
                refuse("not allowed in a Gremlin script: the mutable field " + type.getName() + "." + name, expression);
            }
            return;
        }
        String suffix = Character.toUpperCase(name.charAt(0)) + name.substring(1);
        for (String getter : new String[] {"get" + suffix, "is" + suffix}) {
            MethodNode method = findGetter(owner, getter);
            if (method != null) {
                if (!SandboxRules.allowedMethod(method)) {
                    refuse("not allowed in a Gremlin script: " + describe(method), expression);
                }
                return;
            }
        }
        if (!SandboxRules.allowedType(owner)) {
            refuse("not allowed in a Gremlin script: property '" + name + "' of " + owner.getName(), expression);
        }
    }

    private static MethodNode findGetter(ClassNode type, String name) {
        for (ClassNode t = type; t != null; t = t.getSuperClass()) {
            MethodNode m = t.getGetterMethod(name);
            if (m != null) {
                return m;
            }
        }
        for (ClassNode i : type.getAllInterfaces()) {
            MethodNode m = i.getDeclaredMethod(name, Parameter.EMPTY_ARRAY);
            if (m != null) {
                return m;
            }
        }
        return null;
    }

    /** A type written in a declaration or cast: Groovy turns {@code File f = ['/x']} into {@code new File('/x')}. */
    private void checkNamedType(ClassNode type, ASTNode where) {
        if (type == null || type.isGenericsPlaceHolder() || type.isScript() || SandboxRules.allowedType(type)
                || type.equals(ClassHelper.CLOSURE_TYPE)
                || type.isDerivedFrom(ClassHelper.CLOSURE_TYPE) || ClassHelper.isDynamicTyped(type)) {
            return;
        }
        refuse("type not allowed in a Gremlin script: " + type.getName(), where);
    }

    private void refuse(String message, ASTNode where) {
        addStaticTypeError(message, where);
    }

    private static String describe(MethodNode method) {
        StringBuilder s = new StringBuilder(method.getDeclaringClass().getName()).append('#')
                .append(method.getName().equals("<init>") ? "<init>" : method.getName()).append('(');
        Parameter[] params = method.getParameters();
        for (int i = 0; i < params.length; i++) {
            s.append(i == 0 ? "" : ",").append(params[i].getOriginType().toString(false));
        }
        return s.append(')').toString();
    }
}
