package io.tetradb.table.http;

import io.tetradb.table.model.TableException;
import io.tetradb.table.store.AccessPolicies.SignedIdentifier;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The body of Get/Set Table ACL: {@code <SignedIdentifiers><SignedIdentifier><Id/><AccessPolicy><Start/><Expiry/>
 * <Permission/></AccessPolicy></SignedIdentifier>...</SignedIdentifiers>}. Parsed with the JDK's DOM parser with
 * DOCTYPEs and external entities refused, so a request body can never make the server read a file or a URL.
 */
final class AccessPolicyXml {
    /** Azure's bound on a signed identifier's length. */
    static final int MAX_ID_LENGTH = 64;
    private static final String TABLE_PERMISSIONS = "raud";

    private AccessPolicyXml() {
    }

    static List<SignedIdentifier> parse(byte[] body) {
        List<SignedIdentifier> out = new ArrayList<>();
        if (body == null || new String(body, StandardCharsets.UTF_8).isBlank()) {
            return out; // an empty body removes every policy, as in Azure
        }
        Element root = document(body).getDocumentElement();
        if (!root.getTagName().equals("SignedIdentifiers")) {
            throw invalid("the root element must be SignedIdentifiers, not " + root.getTagName());
        }
        for (Element si : children(root)) {
            if (!si.getTagName().equals("SignedIdentifier")) {
                throw invalid("unexpected element " + si.getTagName() + " in SignedIdentifiers");
            }
            String id = null;
            String start = null;
            String expiry = null;
            String permission = null;
            for (Element e : children(si)) {
                switch (e.getTagName()) {
                    case "Id" -> id = e.getTextContent().trim();
                    case "AccessPolicy" -> {
                        for (Element a : children(e)) {
                            String v = a.getTextContent().trim();
                            switch (a.getTagName()) {
                                case "Start" -> start = v.isEmpty() ? null : time(v);
                                case "Expiry" -> expiry = v.isEmpty() ? null : time(v);
                                case "Permission" -> permission = v.isEmpty() ? null : permission(v);
                                default -> throw invalid("unexpected element " + a.getTagName() + " in AccessPolicy");
                            }
                        }
                    }
                    default -> throw invalid("unexpected element " + e.getTagName() + " in SignedIdentifier");
                }
            }
            if (id == null || id.isEmpty() || id.length() > MAX_ID_LENGTH) {
                throw invalid("a SignedIdentifier needs an Id of 1 to " + MAX_ID_LENGTH + " characters");
            }
            for (SignedIdentifier earlier : out) {
                if (earlier.id().equals(id)) {
                    throw invalid("the signed identifier " + id + " is given twice");
                }
            }
            out.add(new SignedIdentifier(id, start, expiry, permission));
        }
        return out;
    }

    static byte[] write(List<SignedIdentifier> identifiers) {
        StringBuilder s = new StringBuilder("<?xml version=\"1.0\" encoding=\"utf-8\"?><SignedIdentifiers>");
        for (SignedIdentifier i : identifiers) {
            s.append("<SignedIdentifier><Id>").append(escape(i.id())).append("</Id><AccessPolicy>");
            element(s, "Start", i.start());
            element(s, "Expiry", i.expiry());
            element(s, "Permission", i.permission());
            s.append("</AccessPolicy></SignedIdentifier>");
        }
        return s.append("</SignedIdentifiers>").toString().getBytes(StandardCharsets.UTF_8);
    }

    private static void element(StringBuilder s, String name, String value) {
        if (value != null) {
            s.append('<').append(name).append('>').append(escape(value)).append("</").append(name).append('>');
        }
    }

    private static String escape(String v) {
        return v.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    /** Table permissions in any order, each once; kept as given. */
    private static String permission(String v) {
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            if (TABLE_PERMISSIONS.indexOf(c) < 0 || v.indexOf(c) != i) {
                throw new TableException(400, "InvalidXmlNodeValue", "The value for one of the XML nodes is not in "
                        + "the correct format: Permission '" + v + "' (a table policy takes r, a, u and d)");
            }
        }
        return v;
    }

    private static String time(String v) {
        try {
            java.time.OffsetDateTime.parse(v);
            return v;
        } catch (java.time.format.DateTimeParseException e) {
            throw new TableException(400, "InvalidXmlNodeValue", "The value for one of the XML nodes is not in the "
                    + "correct format: '" + v + "' is not an ISO-8601 time");
        }
    }

    private static List<Element> children(Element parent) {
        List<Element> out = new ArrayList<>();
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e) {
                out.add(e);
            } else if (n.getNodeType() == Node.TEXT_NODE && !n.getTextContent().isBlank()) {
                throw invalid("unexpected text in " + parent.getTagName());
            }
        }
        return out;
    }

    private static Document document(byte[] body) {
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            f.setXIncludeAware(false);
            f.setExpandEntityReferences(false);
            DocumentBuilder b = f.newDocumentBuilder();
            b.setErrorHandler(new org.xml.sax.helpers.DefaultHandler()); // no "[Fatal Error]" lines on stderr
            return b.parse(new ByteArrayInputStream(body));
        } catch (SAXException | IOException e) {
            throw invalid("XML specified is not syntactically valid.");
        } catch (ParserConfigurationException e) {
            throw new IllegalStateException(e);
        }
    }

    private static TableException invalid(String message) {
        return new TableException(400, "InvalidXmlDocument", message);
    }
}
