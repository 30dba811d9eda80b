package dev.allot.shared;

/**
 * What a caller's text may put on a log line: nothing that starts another line. Control characters (CR, LF,
 * NEL) break a line, and so do U+2028 and U+2029, the line and paragraph separators, for any reader that follows
 * Unicode (JSON log viewers, JavaScript, many terminals); the latter are not control characters, so a check for
 * those alone let them through.
 */
public final class LogText {

    private LogText() {}

    /** Whether the code point starts another line, or is another control character. */
    public static boolean breaksLine(int codePoint) {
        int type = Character.getType(codePoint);
        return Character.isISOControl(codePoint)
                || type == Character.LINE_SEPARATOR
                || type == Character.PARAGRAPH_SEPARATOR;
    }
}
