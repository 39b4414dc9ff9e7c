import CKSchema
import Foundation

/// The executable: picks the command, parses its arguments, runs it, and exits with its code.
enum CLI {
    /// Every command, in the order `--help` lists them.
    static let commands: [any Command.Type] = [
        InitCommand.self, FmtCommand.self, LintCommand.self, DiffCommand.self, PromoteCommand.self, ValidateCommand.self,
        ImportCommand.self, ExportCommand.self, CheckCommand.self, MigrateCommand.self, RecordsCommand.self,
        PullCommand.self, PushCommand.self, ResetCommand.self, VerifyCommand.self, JSONSchemaCommand.self, CompletionCommand.self, ManCommand.self,
        QueryCommand.self, ChangesCommand.self, NotificationsCommand.self, ScanCommand.self, GenerateCommand.self,
    ]

    static func main() -> Never {
        var io = Output()
        let argv = Array(CommandLine.arguments.dropFirst())
        exit(run(argv, &io).rawValue)
    }

    static func run(_ argv: [String], _ io: inout Output) -> ExitCode {
        guard let first = argv.first else {
            io.error(topHelp())
            return .failure
        }
        if first == "--help" || first == "-h" || first == "help" {
            if argv.count > 1, let c = commands.first(where: { $0.name == argv[1] }) { io.write(help(c, Array(argv.dropFirst(2)))); return .success }
            io.write(topHelp())
            return .success
        }
        if first == "--version" { io.write("ckschema \(CKSchemaVersion.current)\n"); return .success }
        guard let command = commands.first(where: { $0.name == first }) else {
            let hint = Suggest.phrase(for: first, in: commands.map { $0.name })
            io.error("ckschema: error: unknown command '\(ControlCharacters.escaped(first))'\(ControlCharacters.escaped(hint))\nusage: ckschema <command> [options]; see 'ckschema --help'\n")
            return .failure
        }
        let rest = Array(argv.dropFirst())
        if rest.contains("--help") || rest.contains("-h") {
            io.write(help(command, rest.filter { $0 != "--help" && $0 != "-h" }))
            return .success
        }
        do {
            return try command.execute(rest, &io)
        } catch let e as UsageError {
            io.error("ckschema \(command.name): error: \(ControlCharacters.escaped(e.message))\nusage: \(e.usage ?? command.usage)\n")
            return .failure
        } catch let e as InputError {
            let diagnostics = locatingMissingSchemas(e.diagnostics, rest)
            io.error(DiagnosticRenderer(format: .text, command: command.name, showSource: Output.stderrIsTerminal, rules: RuleCatalog.info).render(diagnostics))
            // A report a CI step parses is a report on failure too: with --format json or
            // sarif the input errors are also the command's document on standard output
            // (issue 35 point 6; `migrate status --format json` printed them as text alone).
            if let format = io.reportFormat, format == .json || format == .sarif, !io.stdoutUsed.isSet {
                io.conclude(diagnostics, format: format, command: io.reportCommand ?? command.name, failed: true)
            }
            return .failure
        } catch {
            io.error("ckschema \(command.name): error: \(ControlCharacters.escaped(String(describing: error)))\n")
            return .failure
        }
    }

    /// A schema ckschema.yaml names that does not exist is reported at the line that names
    /// it (`Configuration.locatingMissingSchemas`): the configuration is read again only then,
    /// from `--config` when the arguments give it.
    static func locatingMissingSchemas(_ diagnostics: [Diagnostic], _ args: [String]) -> [Diagnostic] {
        guard diagnostics.contains(where: { $0.code == InputRules.unreadable.code }) else { return diagnostics }
        var configPath: String?
        for (i, a) in args.enumerated() {
            if a == "--config", i + 1 < args.count { configPath = args[i + 1] }
            if a.hasPrefix("--config=") { configPath = String(a.dropFirst("--config=".count)) }
        }
        guard let config = try? CommonOptions.configuration(configPath) else { return diagnostics }
        return config.locatingMissingSchemas(diagnostics)
    }

    static func topHelp() -> String {
        var s = """
        ckschema \(CKSchemaVersion.current): a CloudKit container's schema as code.

        usage: ckschema <command> [options]

        commands:

        """
        let width = commands.map { $0.name.count }.max() ?? 0
        for c in commands { s += "  " + c.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + c.summary + "\n" }
        s += """

        'ckschema <command> --help' shows a command's options and an example.
        Exit codes: 0 clean, 1 findings, 2 the tool could not do its job.

        """
        return s
    }

    /// The `--help` the words after a command ask for: a subcommand's when they name one
    /// (`migrate hash --help`), else the command's.
    static func help(_ c: any Command.Type, _ words: [String]) -> String {
        if let group = c as? any CommandGroup.Type, let sub = group.subcommand(in: words) { return subcommandHelp(group, sub.type) }
        return commandHelp(c)
    }

    /// A subcommand's `--help`: its usage line, summary and options, the ones it declares.
    static func subcommandHelp(_ group: any CommandGroup.Type, _ sub: any Subcommand.Type) -> String {
        "usage: \(group.usage(of: sub))\n\n" + OptionHelp.wrap(sub.summary, width: 96).joined(separator: "\n") + "\n\n"
            + "'ckschema \(group.name) --help' describes every \(group.name) subcommand, with examples.\n" + OptionHelp.section(sub.options)
    }

    /// A command's `--help`: usage, summary, its subcommands, its help text and its options.
    static func commandHelp(_ c: any Command.Type) -> String {
        var s = "usage: \(c.usage)\n\n\(c.summary)\n\n"
        if !c.subcommands.isEmpty { s += OptionHelp.table("subcommands", c.subcommands.map { ($0.synopsis, $0.summary) }).dropFirst() + "\n" }
        return s + "\(c.help)\n" + OptionHelp.section(c.options)
    }
}
