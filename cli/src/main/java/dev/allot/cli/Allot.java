package dev.allot.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code allot}: book GPU nodes from a pipeline. {@code java -jar allot-cli.jar <command>}; see
 * docs/api-guide.md, "The allot CLI".
 */
@Command(
        name = "allot",
        mixinStandardHelpOptions = true,
        version = "allot-cli 0.1.0",
        description = "Book dedicated GPU nodes on Allot from scripts and CI pipelines.",
        subcommands = {
            LoginCommand.class,
            PoolsCommand.class,
            CapacityCommand.class,
            EarliestCommand.class,
            QuoteCommand.class,
            BookCommand.class,
            StatusCommand.class,
            KubeconfigCommand.class,
            SshConfigCommand.class,
            WaitCommand.class,
            ListCommand.class,
            ExtendCommand.class,
            CancelCommand.class,
            UsageCommand.class
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:done",
            "1:failed (server error or network after the retries; nothing booked)",
            "2:bad input (options, 400, 404)",
            "3:no capacity (409 capacity_not_available)",
            "4:quota or budget refused (422)",
            "5:authentication (not signed in, 401, 403)",
            "6:booked, but the cluster was not in the awaited state within --wait-timeout",
            "7:booked, but the cluster cannot reach the awaited state (FAILED, DELETED, DEGRADED, reservation over)",
            "8:booked, but the wait broke off (server or network failed after the retries)"
        })
public class Allot implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(this.spec.commandLine(), "name a command (allot --help lists them)");
    }

    /** The command line with the exit codes of {@link ExitCodes}; tests run it in-process. */
    public static CommandLine commandLine() {
        // bad options end with picocli's usage exit code, 2, which is ExitCodes.BAD_INPUT
        CommandLine allot = new CommandLine(new Allot()).setExecutionExceptionHandler(new Failures());
        // --help (exit 0) on every command, as docs/api-guide.md promises
        for (CommandLine command : allot.getSubcommands().values()) {
            command.getCommandSpec().mixinStandardHelpOptions(true);
        }
        return allot;
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }
}
