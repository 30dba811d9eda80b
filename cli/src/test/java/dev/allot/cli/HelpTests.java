package dev.allot.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class HelpTests {

    @Test
    void everyCommandTakesHelpAndExitsZero() {
        CommandLine allot = Allot.commandLine();
        assertTrue(
                allot.getSubcommands().size() >= 14, "" + allot.getSubcommands().keySet());
        for (String command : allot.getSubcommands().keySet()) {
            StringWriter out = new StringWriter();
            int exit = Allot.commandLine()
                    .setOut(new PrintWriter(out, true))
                    .setErr(new PrintWriter(new StringWriter(), true))
                    .execute(command, "--help");
            assertEquals(0, exit, command + " --help");
            assertTrue(out.toString().startsWith("Usage: allot " + command), out.toString());
        }
    }

    @Test
    void theTopLevelHelpDocumentsTheExitCodesOfABookingThatWasKept() {
        StringWriter out = new StringWriter();
        assertEquals(0, Allot.commandLine().setOut(new PrintWriter(out, true)).execute("--help"));
        for (String code : new String[] {"6", "7", "8"}) {
            assertTrue(out.toString().contains("  " + code + "   booked, but"), out.toString());
        }
    }
}
