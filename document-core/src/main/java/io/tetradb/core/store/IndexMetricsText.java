package io.tetradb.core.store;

import io.tetradb.core.index.CompositeIndex;
import io.tetradb.core.index.IndexTerms;

import java.util.List;

/** Index metrics in the text form the Cosmos DB SDKs print (utilized and potential single and composite indexes). */
final class IndexMetricsText {
    private IndexMetricsText() {
    }

    static String of(List<String> usedSingle, List<String> potentialSingle, List<String> usedComposite,
                     List<String> potentialComposite) {
        StringBuilder sb = new StringBuilder("Index Utilization Information\n");
        section(sb, "Utilized Single Indexes", usedSingle);
        section(sb, "Potential Single Indexes", potentialSingle);
        section(sb, "Utilized Composite Indexes", usedComposite);
        section(sb, "Potential Composite Indexes", potentialComposite);
        return sb.toString();
    }

    private static void section(StringBuilder sb, String title, List<String> specs) {
        sb.append("  ").append(title).append('\n');
        for (String spec : specs) {
            sb.append("    Index Spec: ").append(spec).append('\n')
                    .append("    Index Impact Score: High\n")
                    .append("    ---\n");
        }
    }

    static String composite(CompositeIndex index) {
        StringBuilder sb = new StringBuilder();
        List<String> paths = index.pathStrings();
        for (int i = 0; i < paths.size(); i++) {
            sb.append(i == 0 ? "" : ", ").append(paths.get(i)).append(index.descending(i) ? " DESC" : " ASC");
        }
        return sb.toString();
    }

    static String path(List<String> names) {
        StringBuilder sb = new StringBuilder();
        for (String n : names) {
            sb.append('/').append(IndexTerms.escape(n));
        }
        return sb.toString();
    }
}
