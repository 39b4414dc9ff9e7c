import CKSchema

/// `ckschema completion bash|zsh|fish`: a completion script for every subcommand and option.
enum CompletionCommand: CommandGroup {
    static let name = "completion"
    static let summary = "Print a shell completion script (bash, zsh or fish)."
    static let subcommandTypes: [any Subcommand.Type] = [BashCompletion.self, ZshCompletion.self, FishCompletion.self]
    /// `completion names`, which only the scripts call (CompletionNames.swift).
    static let hiddenSubcommandTypes: [any Subcommand.Type] = [CompletionNamesCommand.self]
    static let help = """
        The script completes every command, its options, and the values of options that take
        a fixed list (--format, --env, ...). It is derived from the options each command
        declares, as --help and 'ckschema man' are. Names come from the project when you
        press Tab: the record types for --type and 'query TYPE', the zones for --zone, the
        migration versions for 'migrate apply --to', read from ckschema.yaml's schemas (the
        one in this folder or above) by the hidden 'ckschema completion names KIND', which
        the scripts call; outside a project it offers nothing.

        examples:
          ckschema completion bash > /etc/bash_completion.d/ckschema
          ckschema completion zsh > "${fpath[1]}/_ckschema"
          ckschema completion fish > ~/.config/fish/completions/ckschema.fish
        """

    static func missingSubcommand() -> UsageError { UsageError("completion needs one shell: bash, zsh or fish") }
    static func unknownSubcommand(_ word: String) -> UsageError {
        UsageError("'\(ControlCharacters.escaped(word))' is not a shell ckschema completes; use bash, zsh or fish")
    }
}

/// One shell's completion script, as a subcommand of `completion`.
protocol ShellCompletion: Subcommand where Options == ShellCompletionOptions {
    static var shell: CompletionScript.Shell { get }
}

extension ShellCompletion {
    static var name: String { shell.rawValue }
    static var summary: String { "the \(shell.rawValue) completion script" }
    static func run(_ options: Options, _ io: inout Output) throws -> ExitCode {
        io.write(CompletionScript.script(shell, commands: CLI.commands))
        return .success
    }
}

/// A shell takes nothing after it: no option, no other word.
struct ShellCompletionOptions: ParsableOptions {
    @Positionals() var words: [String]

    func validate() throws(UsageError) {
        if !words.isEmpty { throw CompletionCommand.missingSubcommand() }
    }
}

enum BashCompletion: ShellCompletion { static let shell = CompletionScript.Shell.bash }
enum ZshCompletion: ShellCompletion { static let shell = CompletionScript.Shell.zsh }
enum FishCompletion: ShellCompletion { static let shell = CompletionScript.Shell.fish }
