import CKSchema

/// `ckschema man`: the man page, from the same text as `--help`.
enum ManCommand: OptionsCommand {
    static let name = "man"
    static let summary = "Print the ckschema(1) man page (roff)."
    static let help = """
        Every command's usage, description, options and examples, as --help prints them.

        examples:
          ckschema man > /usr/local/share/man/man1/ckschema.1
          ckschema man | man -l -
        """

    static func run(_ options: Options, _ io: inout Output) throws -> ExitCode {
        io.write(ManPage.render(commands: CLI.commands))
        return .success
    }
}
