import CKSchema
import Foundation

/// `ckschema fmt [--check | --write] [FILE...]`: the canonical YAML form.
enum FmtCommand: OptionsCommand {
    static let name = "fmt"
    static let summary = "Format YAML schema files canonically (stable key order, shorthand, comments kept)."
    static let help = """
        Without FILE, formats the YAML files of the schemas named in ckschema.yaml.
        With neither --check nor --write, prints the formatted text to standard output.
        --write rewrites the files that are not canonical, names each on stderr, and ends
        with how many it rewrote and how many were already canonical.

        example:
          ckschema fmt --check
          ckschema fmt --write Schemas/development.yaml
        """

    static func run(_ options: Options, _ io: inout Output) throws -> ExitCode {
        let check = options.check, write = options.write, format = options.format
        let config = try CommonOptions.configuration(options.configPath)
        var sources = options.sources
        if sources.isEmpty {
            sources = [config?.developmentSchema, config?.productionSchema].compactMap { $0 }
            if sources.isEmpty { throw UsageError("no file given and no schemas named in ckschema.yaml") }
        }
        var files: [String] = []
        for s in sources {
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: s, isDirectory: &isDir), isDir.boolValue {
                files += try SchemaSource.readableYAMLFiles(inFolder: s)
            } else if !SchemaSource.isCKDB(path: s) {
                files.append(s)
            }
        }
        var diagnostics: [Diagnostic] = []
        var errors: [Diagnostic] = []
        var rewritten = 0, canonical = 0
        for file in files {
            let loaded: SchemaFile
            do { loaded = try SchemaSource.loadYAMLFile(path: file) } catch { errors += error.diagnostics; continue }
            let formatted = SchemaFormatter.format(loaded)
            if check {
                if let d = SchemaFormatter.difference(loaded, formatted: formatted) { diagnostics.append(d) }
            } else if write {
                if formatted != loaded.text {
                    do throws(InputError) {
                        try InputFile.write(formatted, to: file)
                        rewritten += 1
                        io.error("wrote \(ControlCharacters.escaped(file))\n")
                    } catch { errors += error.diagnostics }
                } else {
                    canonical += 1
                }
            } else {
                io.write(files.count > 1 ? "# \(file)\n" + formatted : formatted)
            }
        }
        if write {
            // Issue 22: `fmt --write` says what it wrote, also when that was nothing.
            func n(_ c: Int) -> String { "\(c) file\(c == 1 ? "" : "s")" }
            io.error("ckschema fmt: \(n(rewritten)) rewritten, \(n(canonical)) already canonical\n")
        }
        if !errors.isEmpty { throw InputError(errors) }
        if check { io.report(diagnostics, format: format, command: name) }
        return diagnostics.isEmpty ? .success : .findings
    }
}
