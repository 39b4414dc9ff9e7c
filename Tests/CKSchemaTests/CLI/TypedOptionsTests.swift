import Foundation
import Testing

/// The executable's typed options: each command decodes and checks its options before it
/// runs (a bad value is exit 2 with the usage line, and nothing is done), subcommands are
/// dispatched from the types each group lists, and `--help`, completions and the man page
/// list exactly what the commands declare. All through the built binary.
@Suite struct TypedOptionsTests {
    /// A bad value, a missing positional or two options that conflict: (arguments, message).
    static let refused: [([String], String)] = [
        (["lint", "--format", "xml"], "'xml' is not an output format; use text, json, github, sarif or markdown"),
        (["lint", "--fail-on", "note"], "'note' is not a severity for --fail-on; use warning or error"),
        (["fmt", "--check", "--write"], "--check and --write cannot be used together"),
        (["diff", "--format", "sarif"], "diff prints text, json or markdown; 'sarif' is for reports (use it with promote)"),
        (["diff", "a", "b", "c"], "expected at most two schemas, FROM and TO; got 3"),
        (["promote", "--fail-on", "sometimes"], "'sometimes' is not a severity for --fail-on; use warning or error"),
        (["validate", "--env", "staging", "x.ndjson"], "'staging' is not an environment; use production or development"),
        (["validate", "--batch", "x", "x.ndjson"], "--batch needs a positive whole number, not 'x'"),
        (["validate", "--max-errors", "0", "x.ndjson"], "--max-errors needs a positive whole number, not '0'"),
        (["validate", "-j", "-1", "x.ndjson"], "--jobs needs a positive whole number, not '-1'"),
        (["validate", "--input-format", "csv", "x.ndjson"], "'csv' is not an input format; use ndjson, json or yaml"),
        (["validate", "--infer", "x.ndjson"], "--infer needs --env development: production never adds fields"),
        (["validate"], "no record file given; name one or more files, or '-' for standard input"),
        (["import"], "no .ckdb file given"),
        (["export", "--format", "sql"], "'sql' is not an export format; use ckdb, yaml or jsonschema"),
        (["check", "extra"], "check takes no positional arguments; it reads ckschema.yaml"),
        // Issue 18: a group's subcommand takes only its own options (these were accepted and ignored).
        (["migrate", "hash", "--dry-run"], "migrate hash does not take --dry-run; it takes --config or --migrations"),
        (["records", "export", "--zone", "Z"], "records export does not take --zone; it takes --config, --env, --store, --type or --output"),
        (["migrate", "apply", "--format", "json"], "migrate apply does not take --format; it takes --config, --env, --to, --dry-run, --lock-timeout, --store or --migrations"),
        (["migrate", "apply", "--to", "x"], "--to takes a migration version number, like 3"),
        (["migrate", "apply", "--lock-timeout", "-1"], "--lock-timeout takes seconds, like 30"),
        (["migrate", "status", "--env", "x"], "'x' is not an environment; use development or production"),
        (["migrate", "new"], "migrate new takes one NAME, like add_title"),
        (["records", "import", "--save-policy", "changedkeys", "x.ndjson"],
         "'changedkeys' is not a save policy; did you mean 'changedKeys'?; use ifServerRecordUnchanged, changedKeys or allKeys"),
        (["records", "delete"], "records delete needs at least one RECORDNAME"),
        (["pull", "--env", "staging"], "'staging' is not an environment; use production or development"),
        (["query", "Note", "--limit", "0"], "--limit needs a whole number above 0, found '0'"),
        (["query", "Note", "--format", "xml"], "'xml' is not a format here; use ndjson or text"),
        (["changes"], "changes needs --zone Z"),
        (["notifications", "--since", "-1"], "--since needs a notification sequence number (0 or more), found '-1'"),
        (["completion", "bash", "zsh"], "completion needs one shell: bash, zsh or fish"),
        (["man", "extra"], "man takes no arguments"),
    ]

    @Test(arguments: refused)
    func aBadValueIsExitTwoWithTheUsageLine(arguments: [String], message: String) throws {
        let r = try runCLI(arguments)
        #expect(r.code == 2)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.hasPrefix("ckschema \(arguments[0]): error: \(message)\nusage: ckschema \(arguments[0])"), "\(r.stderr)")
    }

    /// Options are checked before the command does anything: no store is created, no file written.
    @Test func aBadValueChangesNothing() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = dir + "/store.sqlite"
        let runs: [[String]] = [
            ["records", "import", "--store", store, "--format", "xml", Paths.fixture("store/records/notes.ndjson")],
            ["records", "delete", "--store", store, "--fail-on", "sometimes", "n1"],
            ["migrate", "apply", "--store", store, "--lock-timeout", "soon"],
            ["promote", "--apply", dir + "/plan.json", "--store", store, "--format", "xml"],
            ["json-schema", "-o", dir + "/schema.json", "extra"],
            ["init", dir + "/project", "--force", "extra"],
        ]
        for arguments in runs {
            let r = try runCLI(arguments, cwd: dir)
            #expect(r.code == 2, "\(arguments): \(r.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty, "\(arguments) left files behind")
        }
    }

    @Test func subcommandsAreDispatchedFromTheirTypes() throws {
        let unknown = try runCLI(["migrate", "stat"])
        #expect(unknown.code == 2)
        #expect(unknown.stderr.hasPrefix("ckschema migrate: error: unknown migrate subcommand 'stat'; did you mean 'status'?\n"))
        let missing = try runCLI(["migrate"])
        #expect(missing.stderr.hasPrefix("ckschema migrate: error: migrate needs a subcommand: new, apply, status, hash or baseline\n"))
        let records = try runCLI(["records"])
        #expect(records.stderr.hasPrefix("ckschema records: error: records needs a subcommand: import, export or delete\n"))
        #expect(try runCLI(["completion", "zsh"]).stdout.hasPrefix("#compdef ckschema\n"))
        #expect(try runCLI(["completion", "fish"]).stdout.hasPrefix("# fish completion for ckschema"))
        // Every subcommand help lists is one the group finds: its options are decoded (and
        // here refused), where an unknown word would have been refused first.
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let groups = try Self.declaredSubcommands().filter { !$0.subcommands.isEmpty }
        #expect(Dictionary(uniqueKeysWithValues: groups.map { ($0.command, $0.subcommands) })
                == ["migrate": ["new", "apply", "status", "hash", "baseline"], "records": ["import", "export", "delete"], "completion": ["bash", "zsh", "fish"], "generate": ["swift"]])
        for (command, subcommands) in groups where command != "completion" {
            for sub in subcommands {
                let r = try runCLI([command, sub, "--format", "bogus"], cwd: dir)
                // Refused by the subcommand's own check: its value, or its not taking --format at all.
                #expect(r.code == 2 && (r.stderr.contains("'bogus' is not an output format") || r.stderr.contains("\(command) \(sub) does not take --format")),
                        "\(command) \(sub): \(r.stderr)")
            }
        }
    }

    /// `--help`, the bash completion and the man page list, for each command, the same
    /// options and subcommands, and usage names no option the command does not declare.
    @Test func helpCompletionsAndManPageListExactlyTheDeclaredOptions() throws {
        let bash = try runCLI(["completion", "bash"]).stdout
        let man = try runCLI(["man"]).stdout
        let subcommands = try Self.declaredSubcommands()
        for (command, options) in try ShellIntegrationTests.declared() {
            #expect(!options.isEmpty || ["completion", "man"].contains(command), "\(command) declares no option")
            // bash: the word list offered after `-` for this command, without --help and short names.
            let branch = try #require(bash.components(separatedBy: "\n        \(command))\n").dropFirst().first?
                .components(separatedBy: "\n            ;;\n").first)
            let words = try #require(branch.components(separatedBy: "if [[ \"$cur\" == -* ]]; then COMPREPLY=( $(compgen -W \"").dropFirst().first)
            let offered = words.prefix { $0 != "\"" }.split(separator: " ").map(String.init).filter { $0.hasPrefix("--") && $0 != "--help" }
            #expect(offered == options, "bash for \(command)")
            // man: the `.TP .B --name` entries of this command's section.
            let roffName = command.replacingOccurrences(of: "-", with: "\\-")
            let section = try #require(man.components(separatedBy: ".SS \"ckschema \(roffName)\"\n").dropFirst().first?
                .components(separatedBy: "\n.SS ").first)
            let manOptions = section.components(separatedBy: ".TP\n.B ").dropFirst().compactMap { entry -> String? in
                let line = entry.prefix { $0 != "\n" }.replacingOccurrences(of: "\\-", with: "-")
                guard let r = line.range(of: "--") else { return nil }
                return String(line[r.lowerBound...].prefix { !$0.isWhitespace })
            }
            #expect(manOptions == options, "man for \(command)")
            // Subcommands: help, bash and man agree.
            let subs = subcommands.first { $0.command == command }?.subcommands ?? []
            let bashSubs = branch.components(separatedBy: "if [ \"$COMP_CWORD\" -eq 2 ]; then COMPREPLY=( $(compgen -W \"").dropFirst().first
                .map { $0.prefix { $0 != "\"" }.split(separator: " ").map(String.init) } ?? []
            #expect(bashSubs == subs, "bash subcommands for \(command)")
            for sub in subs { #expect(section.contains(".B \(command) \(sub)"), "man lacks \(command) \(sub)") }
            // Usage: every --option it names is declared.
            let usage = try runCLI([command, "--help"]).stdout.prefix { $0 != "\n" }
            for word in usage.split(whereSeparator: { " [|]".contains($0) }) where word.hasPrefix("--") {
                #expect(options.contains(String(word)), "\(command)'s usage names \(word), which it does not declare")
            }
        }
    }

    /// Each command's subcommands, as its `--help` lists them under `subcommands:`.
    static func declaredSubcommands() throws -> [(command: String, subcommands: [String])] {
        try ShellIntegrationTests.declared().map { command, _ in
            let help = try runCLI([command, "--help"]).stdout
            let subs = help.split(separator: "\n", omittingEmptySubsequences: false).drop { $0 != "subcommands:" }.dropFirst()
                .prefix { !$0.isEmpty }.compactMap { line -> String? in
                    line.hasPrefix("  ") && !line.hasPrefix("   ") ? String(line.dropFirst(2).prefix { $0 != " " }) : nil
                }
            return (command, Array(subs))
        }
    }
}
