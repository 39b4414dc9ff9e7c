import CKSchema

/// `ckschema completion bash|zsh|fish`: a completion script for every subcommand and option.
enum CompletionCommand: Command {
    static let name = "completion"
    static let summary = "Print a shell completion script (bash, zsh or fish)."
    static let usage = "ckschema completion bash|zsh|fish"
    static let options: [OptionSpec] = []
    static let subcommands = CompletionScript.Shell.allCases.map(\.rawValue)
    static let help = """
        The script completes every command, its options, and the values of options that take
        a fixed list (--format, --env, ...). It is derived from the options each command
        declares, as --help and 'ckschema man' are.

        examples:
          ckschema completion bash > /etc/bash_completion.d/ckschema
          ckschema completion zsh > "${fpath[1]}/_ckschema"
          ckschema completion fish > ~/.config/fish/completions/ckschema.fish
        """

    static func run(_ args: ParsedArguments, _ io: inout Output) throws -> ExitCode {
        guard args.positionals.count == 1, let word = args.positionals.first else {
            throw UsageError("completion needs one shell: bash, zsh or fish")
        }
        guard let shell = CompletionScript.Shell(rawValue: word) else {
            throw UsageError("'\(ControlCharacters.escaped(word))' is not a shell ckschema completes; use bash, zsh or fish")
        }
        io.write(CompletionScript.script(shell, commands: CLI.commands))
        return .success
    }
}

/// `ckschema man`: the man page, from the same text as `--help`.
enum ManCommand: Command {
    static let name = "man"
    static let summary = "Print the ckschema(1) man page (roff)."
    static let usage = "ckschema man"
    static let options: [OptionSpec] = []
    static let help = """
        Every command's usage, description, options and examples, as --help prints them.

        examples:
          ckschema man > /usr/local/share/man/man1/ckschema.1
          ckschema man | man -l -
        """

    static func run(_ args: ParsedArguments, _ io: inout Output) throws -> ExitCode {
        if !args.positionals.isEmpty { throw UsageError("man takes no arguments") }
        io.write(ManPage.render(commands: CLI.commands))
        return .success
    }
}
