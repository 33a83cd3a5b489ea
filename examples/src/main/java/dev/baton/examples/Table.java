package dev.baton.examples;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** A text table with columns as wide as their widest cell, for a terminal. */
final class Table {
    private static final int MAX_CELL = 48;

    private final List<String> headers;
    private final List<List<String>> rows = new ArrayList<>();

    Table(String... headers) {
        this.headers = List.of(headers);
    }

    Table row(Object... cells) {
        if (cells.length != headers.size()) throw new IllegalArgumentException("expected " + headers.size() + " cells");
        rows.add(Arrays.stream(cells).map(c -> clip(c == null ? "-" : c.toString())).toList());
        return this;
    }

    boolean isEmpty() {
        return rows.isEmpty();
    }

    void print(PrintStream out, String indent) {
        int[] width = new int[headers.size()];
        for (int i = 0; i < width.length; i++) {
            width[i] = headers.get(i).length();
            for (List<String> r : rows) width[i] = Math.max(width[i], r.get(i).length());
        }
        out.println(indent + line(headers, width));
        StringBuilder rule = new StringBuilder();
        for (int i = 0; i < width.length; i++) {
            if (i > 0) rule.append("  ");
            rule.append("-".repeat(width[i]));
        }
        out.println(indent + rule);
        for (List<String> r : rows) out.println(indent + line(r, width));
    }

    private static String line(List<String> cells, int[] width) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < cells.size(); i++) {
            if (i > 0) b.append("  ");
            String c = cells.get(i);
            b.append(c);
            if (i < cells.size() - 1) b.append(" ".repeat(width[i] - c.length()));
        }
        return b.toString();
    }

    private static String clip(String s) {
        String oneLine = s.replace('\n', ' ').replace('\r', ' ');
        return oneLine.length() <= MAX_CELL ? oneLine : oneLine.substring(0, MAX_CELL - 3) + "...";
    }
}
