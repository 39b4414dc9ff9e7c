import Foundation
import Testing
@testable import ckschema

/// The executable's typed options: each command decodes and checks its options before it
/// runs (a bad value is exit 2 with the usage line, and nothing is done), subcommands are
/// dispatched from the types each group lists and each declares its own options, and
/// `--help`, completions and the man page list exactly what each command and subcommand
/// declares. Through the built binary, except the declaration check, which is also run on
/// declarations made wrong on purpose.
@Suite struct TypedOptionsTests {
    /// A bad value, a missing positional or two options that conflict: (arguments, message).
    static let refused: [([String], String)] = [
        (["lint", "--format", "xml"], "'xml' is not an output format; use text, json, github, sarif or markdown"),
        (["lint", "--fail-on", "review"], "'review' is not a severity for --fail-on; use error, warning or note"),
        (["fmt", "--check", "--write"], "--check and --write cannot be used together"),
        (["diff", "--format", "sarif"], "diff prints text, json or markdown; 'sarif' is for reports (use it with promote)"),
        (["diff", "a", "b", "c"], "expected at most two schemas, FROM and TO; got 3"),
        (["promote", "--fail-on", "sometimes"], "'sometimes' is not a severity for --fail-on; use error, warning, review or note"),
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
        // Issue 32 point 9: the hidden subcommand the scripts call takes one of its kinds.
        (["completion", "names", "fields"], "completion names takes one of types, zones, custom-zones or migrations"),
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
    /// options and subcommands, and usage names no option the command does not declare. A
    /// group lists every subcommand's options (bash offers them before a subcommand's word);
    /// after the word, each subcommand's `--help`, bash branch and man page section list the
    /// options it declares.
    @Test func helpCompletionsAndManPageListExactlyTheDeclaredOptions() throws {
        let bash = try runCLI(["completion", "bash"]).stdout
        let man = try runCLI(["man"]).stdout
        let subcommands = try Self.declaredSubcommands()
        /// The word list bash offers after `-` in a branch, without --help and short names.
        func offered(_ branch: String) throws -> [String] {
            let words = try #require(branch.components(separatedBy: "if [[ \"$cur\" == -* ]]; then COMPREPLY=( $(compgen -W \"").dropFirst().last)
            return words.prefix { $0 != "\"" }.split(separator: " ").map(String.init).filter { $0.hasPrefix("--") && $0 != "--help" }
        }
        /// The `.TP .B --name` entries of the man page section of `title` (`migrate hash`).
        func manSection(_ title: String) throws -> (text: String, options: [String]) {
            let section = try #require(man.components(separatedBy: ".SS \"ckschema \(title.replacingOccurrences(of: "-", with: "\\-"))\"\n").dropFirst().first?
                .components(separatedBy: "\n.SS ").first, "man has no section for \(title)")
            let options = section.components(separatedBy: ".TP\n.B ").dropFirst().compactMap { entry -> String? in
                let line = entry.prefix { $0 != "\n" }.replacingOccurrences(of: "\\-", with: "-")
                guard let r = line.range(of: "--") else { return nil }
                return String(line[r.lowerBound...].prefix { !$0.isWhitespace })
            }
            return (section, options)
        }
        for (command, options) in try ShellIntegrationTests.declared() {
            #expect(!options.isEmpty || ["completion", "man"].contains(command), "\(command) declares no option")
            // bash: the word list offered after `-` for this command (a group's comes after its subcommands' branches).
            let branch = try #require(bash.components(separatedBy: "\n        \(command))\n").dropFirst().first?
                .components(separatedBy: "\n            ;;\n").first)
            #expect(try offered(branch) == options, "bash for \(command)")
            let subs = subcommands.first { $0.command == command }?.subcommands ?? []
            // man: the `.TP .B --name` entries of this command's section; a group's are in its subcommands' sections.
            let section = try manSection(command)
            #expect(section.options == (subs.isEmpty ? options : []), "man for \(command)")
            // Subcommands: help, bash and man agree.
            let bashSubs = branch.components(separatedBy: "if [ \"$COMP_CWORD\" -eq 2 ]; then COMPREPLY=( $(compgen -W \"").dropFirst().first
                .map { $0.prefix { $0 != "\"" }.split(separator: " ").map(String.init) } ?? []
            #expect(bashSubs == subs, "bash subcommands for \(command)")
            for sub in subs { #expect(section.text.contains(".B \(command) \(sub)"), "man lacks \(command) \(sub)") }
            // Usage: every --option it names is declared.
            let usage = try runCLI([command, "--help"]).stdout.prefix { $0 != "\n" }
            for word in usage.split(whereSeparator: { " [|]".contains($0) }) where word.hasPrefix("--") {
                #expect(options.contains(String(word)), "\(command)'s usage names \(word), which it does not declare")
            }
            // Each subcommand: its --help, its bash branch and its man section list what it declares.
            var all: Set<String> = []
            for sub in subs {
                let own = try Self.declaredOptions(command, sub)
                all.formUnion(own)
                let subBranch = try #require(branch.components(separatedBy: "\n                \(sub))\n").dropFirst().first?
                    .components(separatedBy: "\n                    ;;\n").first, "bash has no branch for \(command) \(sub)")
                #expect(try offered(subBranch) == own, "bash for \(command) \(sub)")
                // A section of its own when it takes something (`completion bash` takes nothing).
                let takesSomething = try runCLI([command, sub, "--help"]).stdout.prefix { $0 != "\n" } != "usage: ckschema \(command) \(sub)"
                #expect(man.contains(".SS \"ckschema \(command) \(sub)\"\n") == takesSomething, "man for \(command) \(sub)")
                if takesSomething { #expect(try manSection(command + " " + sub).options == own, "man for \(command) \(sub)") }
            }
            if !subs.isEmpty { #expect(all == Set(options), "\(command)'s --help lists \(options), its subcommands declare \(all.sorted())") }
        }
    }

    /// The options a subcommand's own `--help` lists (`migrate hash --help`), long names, in order.
    static func declaredOptions(_ command: String, _ sub: String) throws -> [String] {
        Self.names(inHelp: try runCLI([command, sub, "--help"]).stdout).filter { $0.hasPrefix("--") }
    }

    /// Issue 30: each subcommand declares the options it takes. It takes what it took when
    /// the group declared them all and each subcommand listed its own (`accepts`), and no other.
    static let taken: [String: [String]] = [
        "migrate new": ["--config", "--store", "--migrations", "--schema", "--rename"],
        "migrate apply": ["--config", "--env", "--to", "--dry-run", "--lock-timeout", "--store", "--migrations"],
        "migrate status": ["--format", "--fail-on", "--config", "--env", "--store", "--migrations", "--schema"],
        "migrate hash": ["--config", "--migrations"],
        "migrate baseline": ["--config", "--store", "--migrations", "--from", "--force"],
        "records import": ["--format", "--config", "--env", "--save-policy", "--store"],
        "records export": ["--config", "--env", "--store", "--type", "--output"],
        "records delete": ["--format", "--config", "--env", "--store", "--zone", "--dry-run"],
        "generate swift": ["--output", "--namespace", "--access", "--single-file", "--format", "--fail-on", "--config", "--model-version", "--configuration"],
        "completion bash": [], "completion zsh": [], "completion fish": [],
    ]

    /// A subcommand's `--help` (and `ckschema help GROUP SUB`) is its own: its usage line, the
    /// one the group's usage has for it, and only the options it declares; a mistake in its
    /// command line shows that line too.
    @Test func aSubcommandsHelpUsageAndCompletionsAreItsOwn() throws {
        var found: [String: [String]] = [:]
        for (command, subs) in try Self.declaredSubcommands() where !subs.isEmpty {
            let group = Self.usageLines(try runCLI([command, "--help"]).stdout)
            for sub in subs {
                let help = try runCLI([command, sub, "--help"])
                #expect(help.code == 0 && help.stderr.isEmpty)
                #expect(try runCLI(["help", command, sub]).stdout == help.stdout, "help \(command) \(sub)")
                #expect(try runCLI([command, sub, "-h"]).stdout == help.stdout, "\(command) \(sub) -h")
                let usage = Self.usageLines(help.stdout)
                #expect(usage.count == 1 && (group.contains(usage[0]) || group == ["ckschema \(command) " + subs.joined(separator: "|")]),
                        "\(command) \(sub)'s usage \(usage) is not a line of \(group)")
                #expect(usage.first?.hasPrefix("ckschema \(command) \(sub)") == true)
                let options = try Self.declaredOptions(command, sub)
                #expect(Set(Self.usageOptions(usage[0], help: help.stdout)) == Set(options), "\(command) \(sub): usage and options differ")
                found["\(command) \(sub)"] = options
            }
        }
        #expect(found == Self.taken)
        // A mistake after the subcommand's word shows its own usage line, with what it takes.
        let refused = try runCLI(["migrate", "hash", "--dry-run"])
        #expect(refused.stderr == "ckschema migrate: error: migrate hash does not take --dry-run; it takes --config or --migrations\nusage: ckschema migrate hash [--config PATH] [--migrations PATH]\n")
        let missing = try runCLI(["records", "delete"])
        #expect(missing.stderr.hasSuffix("\nusage: ckschema records delete RECORDNAME... [--format text|json|github|sarif|markdown] [--config PATH] [--env development|production] [--store PATH] [--zone Z] [--dry-run]\n"))
        // Options before the subcommand's word are still the subcommand's.
        let before = try runCLI(["migrate", "--store", "x.sqlite", "hash", "--dry-run"])
        #expect(before.code == 2 && before.stderr.hasPrefix("ckschema migrate: error: migrate hash does not take --dry-run;"))
        #expect(try runCLI(["migrate", "--config", "nonexistent.yaml", "hash", "--help"]).stdout.hasPrefix("usage: ckschema migrate hash "))
    }

    /// Bash offers, after a subcommand's word, only the options that subcommand declares and
    /// the values of its own (before the word, every subcommand's, as the group's --help lists).
    @Test(.enabled(if: Tool.find("bash") != nil, "bash is not installed"))
    func bashCompletesOnlyASubcommandsOwnOptions() throws {
        let bash = try #require(Tool.find("bash"))
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data(try runCLI(["completion", "bash"]).stdout.utf8).write(to: URL(fileURLWithPath: dir + "/ckschema.bash"))
        func complete(_ words: [String]) throws -> [String] {
            let r = try Tool.run(bash, ["-c", """
                source '\(dir)/ckschema.bash'
                COMP_WORDS=(\(words.map { "'\($0)'" }.joined(separator: " "))); COMP_CWORD=\(words.count - 1)
                _ckschema
                printf '%s\\n' "${COMPREPLY[@]}"
                """], cwd: dir)
            #expect(r.code == 0, "\(r.stderr)")
            return r.stdout.split(separator: "\n").map(String.init)
        }
        for (name, options) in Self.taken {
            let words = name.split(separator: " ").map(String.init)
            let offered = try complete(["ckschema"] + words + ["-"]).filter { $0.hasPrefix("--") && $0 != "--help" }
            #expect(offered == options, "\(name)")
        }
        #expect(try complete(["ckschema", "records", "export", "-"]) == ["--config", "--env", "--store", "--type", "-o", "--output", "--help"])
        #expect(try complete(["ckschema", "migrate", "status", "--format", ""]) == ["text", "json", "github", "sarif", "markdown"])
        #expect(try complete(["ckschema", "migrate", "hash", "--dry"]).isEmpty)
        #expect(try complete(["ckschema", "migrate", "--dry"]) == ["--dry-run"])
        #expect(try complete(["ckschema", "migrate", "ha"]) == ["hash"])
    }

    /// Fish too, and the top-level `export` command's options are not offered after `records export`.
    @Test(.enabled(if: Tool.find("fish") != nil, "fish is not installed; 'complete -C' on the fish completion needs it"))
    func fishCompletesOnlyASubcommandsOwnOptions() throws {
        let fish = try #require(Tool.find("fish"))
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data(try runCLI(["completion", "fish"]).stdout.utf8).write(to: URL(fileURLWithPath: dir + "/ckschema.fish"))
        func complete(_ line: String) throws -> [String] {
            let r = try Tool.run(fish, ["--no-config", "-c", "source '\(dir)/ckschema.fish'; complete -C'\(line)'"], cwd: dir)
            #expect(r.code == 0, "\(r.stderr)")
            return r.stdout.split(separator: "\n").map { String($0.split(separator: "\t")[0]) }
        }
        for (name, options) in Self.taken {
            #expect(try complete("ckschema \(name) --").sorted() == options.sorted(), "\(name)")
        }
        #expect(try complete("ckschema records export -") == ["-o"] + ["--config", "--env", "--output", "--store", "--type"])
        #expect(try complete("ckschema export --").sorted() == ["--config", "--configuration", "--fail-on", "--format", "--model-version", "--output"])
        #expect(try complete("ckschema migrate status --format ") == ["github", "json", "markdown", "sarif", "text"])
        #expect(try complete("ckschema migrate --dry") == ["--dry-run"])
        #expect(try complete("ckschema migrate ha") == ["hash"])
        // After the subcommand's word, files (the script is the folder's one), not the words again.
        #expect(try complete("ckschema migrate hash ") == ["ckschema.fish"])
    }

    /// Every name an `options:` section of `--help` declares, short ones included, in order
    /// (`  -o, --output FILE` gives `-o` and `--output`).
    static func names(inHelp help: String) -> [String] {
        let section = help.components(separatedBy: "\noptions:\n").dropFirst().first ?? ""
        return section.split(separator: "\n").filter { $0.hasPrefix("  -") }.flatMap { line in
            line.dropFirst(2).split(separator: " ", omittingEmptySubsequences: false).prefix { !$0.isEmpty }
                .filter { $0.hasPrefix("-") }.map { String($0.hasSuffix(",") ? $0.dropLast() : $0) }
        }
    }

    /// The names given more than once, each once, in order.
    static func duplicates(_ names: [String]) -> [String] {
        var seen: Set<String> = [], twice: [String] = []
        for n in names where !seen.insert(n).inserted && !twice.contains(n) { twice.append(n) }
        return twice
    }

    /// The lines of a command's usage (a group has one per subcommand), without `usage: `.
    static func usageLines(_ help: String) -> [String] {
        help.split(separator: "\n", omittingEmptySubsequences: false).prefix { !$0.isEmpty }
            .map { String($0.drop { $0 == " " }.replacingOccurrences(of: "usage: ", with: "")) }
    }

    /// The options a usage line names, long names for short ones (`-o` is `--output`).
    static func usageOptions(_ line: String, help: String) -> [String] {
        let names = Self.names(inHelp: help)
        return line.split(whereSeparator: { " [|]".contains($0) }).map(String.init).filter { $0.hasPrefix("-") && !$0.hasPrefix("---") }
            .map { word in
                guard !word.hasPrefix("--"), let i = names.firstIndex(of: word), i + 1 < names.count else { return word }
                return names[i + 1]
            }
    }

    /// Issue 18: an option name (long or short) declared twice in one command is refused. The
    /// check is proved on a help text that has both mistakes, then run on every command and,
    /// issue 30, every subcommand: through its `--help`, and on its declaration.
    @Test func noCommandDeclaresAnOptionNameTwice() throws {
        let sample = "usage: x\n\noptions:\n  -o, --output FILE  one\n  --force            two\n  -o, --other X      three\n  --output PATH      four\n"
        #expect(Self.names(inHelp: sample) == ["-o", "--output", "--force", "-o", "--other", "--output"])
        #expect(Self.duplicates(Self.names(inHelp: sample)) == ["-o", "--output"])
        let subcommands = try Self.declaredSubcommands()
        for (command, options) in try ShellIntegrationTests.declared() {
            let names = Self.names(inHelp: try runCLI([command, "--help"]).stdout)
            #expect(names.filter { $0.hasPrefix("--") } == options, "\(command): \(names)")
            #expect(Self.duplicates(names).isEmpty, "\(command) declares \(Self.duplicates(names)) twice")
            for sub in subcommands.first(where: { $0.command == command })?.subcommands ?? [] {
                let own = Self.names(inHelp: try runCLI([command, sub, "--help"]).stdout)
                #expect(Self.duplicates(own).isEmpty, "\(command) \(sub) declares \(Self.duplicates(own)) twice")
            }
        }
        // The declarations themselves, groups included, and every group's subcommands together.
        #expect(DeclarationCheck.problems(CLI.commands) == [])
        var checked: [String] = []
        for command in CLI.commands {
            if command.subcommands.isEmpty {
                #expect(DeclarationCheck.duplicateNames(command.options) == [], "\(command.name)")
                checked.append(command.name)
            }
            for sub in command.subcommands {
                #expect(DeclarationCheck.duplicateNames(sub.options) == [], "\(command.name) \(sub.name)")
                checked.append(command.name + " " + sub.name)
            }
            #expect(DeclarationCheck.conflicts(command.subcommands.map { $0.options }) == [], "\(command.name)")
        }
        #expect(Set(Self.taken.keys).isSubset(of: Set(checked)))
    }

    /// The check finds a name declared twice when the second comes through a `@Group` (long
    /// and short), in a subcommand as in a command, and a name two subcommands declare differently.
    @Test func theDeclarationCheckFindsANameDeclaredTwiceThroughAGroup() {
        #expect(DeclarationCheck.duplicateNames(Twice.self) == ["--config", "-y"])
        #expect(DeclarationCheck.duplicateNames(Shared.self) == [])
        #expect(DeclarationCheck.duplicateNames(Fine.self) == [])
        #expect(DeclarationCheck.problems([BadGroup.self]) == [
            "bad twice declares --config twice", "bad twice declares -y twice",
            "the subcommands of bad declare --config differently", "the subcommands of bad declare -y differently",
        ])
        #expect(DeclarationCheck.problems([FineGroup.self]) == [])
        #expect(DeclarationCheck.conflicts([Shared.specs, Fine.specs]) == [])
    }

    /// `--config` and `-y, --yes`, as a group several structs take.
    struct Shared: ParsableOptions {
        @Opt(CommonOptions.config) var config: String?
        @Opt(Flag("yes", short: "y", help: "do not ask")) var yes: Bool
    }

    /// Declares `--config` again and `-y` on another option, besides the group's.
    struct Twice: ParsableOptions {
        @Opt(.path("config", help: "another configuration")) var other: String?
        @Group var shared: Shared
        @Opt(Flag("yesterday", short: "y", help: "since yesterday")) var yesterday: Bool
    }

    /// The group's options and one of its own.
    struct Fine: ParsableOptions {
        @Group var shared: Shared
        @Opt(Flag("force", help: "replace it")) var force: Bool
    }

    enum TwiceSub: Subcommand {
        static let name = "twice"
        static let summary = "declares two options with one name"
        static func run(_ options: Twice, _ io: inout Output) throws -> ExitCode { .success }
    }

    enum FineSub: Subcommand {
        static let name = "fine"
        static let summary = "declares each name once"
        static func run(_ options: Fine, _ io: inout Output) throws -> ExitCode { .success }
    }

    enum BadGroup: CommandGroup {
        static let name = "bad"
        static let summary = "a group with a subcommand that declares a name twice"
        static let help = ""
        static let subcommandTypes: [any Subcommand.Type] = [FineSub.self, TwiceSub.self]
    }

    enum FineGroup: CommandGroup {
        static let name = "fine"
        static let summary = "a group whose subcommands agree"
        static let help = ""
        static let subcommandTypes: [any Subcommand.Type] = [FineSub.self]
    }

    /// Issue 18: usage lines are generated from the declarations, so each names every option its
    /// command takes (validate's hand-written one named 7 of 12) and no other; a subcommand's
    /// line names exactly the options it takes, the ones its refusal lists.
    @Test func usageNamesEveryDeclaredOptionAndOnlyThose() throws {
        for (command, options) in try ShellIntegrationTests.declared() {
            let help = try runCLI([command, "--help"]).stdout
            let lines = Self.usageLines(help)
            let named = lines.flatMap { Self.usageOptions($0, help: help) }
            #expect(Set(named) == Set(options), "\(command): usage names \(named.sorted()), it declares \(options.sorted())")
            for line in lines {
                let words = Self.usageOptions(line, help: help)
                #expect(Self.duplicates(words).isEmpty, "\(line)")
                guard lines.count > 1, let other = options.first(where: { !words.contains($0) }) else { continue }
                // `migrate hash --dry-run`: refused, naming what the line names.
                let sub = String(line.split(separator: " ")[2])
                // An option that takes a value stands as `[--to VERSION]` in some line: give it one.
                let takesValue = lines.contains { $0.split(separator: " ").contains { $0 == "[" + other || $0 == other } }
                let r = try runCLI([command, sub, other] + (takesValue ? ["x"] : []))
                let list = words.count < 2 ? words.joined() : words.dropLast().joined(separator: ", ") + " or " + words[words.count - 1]
                #expect(r.code == 2 && r.stderr.hasPrefix("ckschema \(command): error: \(command) \(sub) does not take \(other); it takes \(list)\n"),
                        "\(line): \(r.stderr)")
            }
        }
        let validate = try runCLI(["validate", "--help"]).stdout
        #expect(Self.usageLines(validate) == ["ckschema validate FILE... [--schema SCHEMA] [--env production|development] [--batch N] [--max-errors N] [--infer] [-j N] [--input-format ndjson|json|yaml] [--format text|json|github|sarif|markdown] [--fail-on error|warning|note] [--config PATH] [--model-version NAME] [--configuration NAME]"])
        let migrate = try runCLI(["migrate", "--help"]).stdout
        #expect(Self.usageLines(migrate) == [
            "ckschema migrate new NAME [--config PATH] [--store PATH] [--migrations PATH] [--schema PATH] [--rename TYPE.OLD:NEW]...",
            "ckschema migrate apply [--config PATH] [--env development|production] [--to VERSION] [--dry-run] [--lock-timeout S] [--store PATH] [--migrations PATH]",
            "ckschema migrate status [--format text|json|github|sarif|markdown] [--fail-on error|warning|note] [--config PATH] [--env development|production] [--store PATH] [--migrations PATH] [--schema PATH]",
            "ckschema migrate hash [--config PATH] [--migrations PATH]",
            "ckschema migrate baseline [--config PATH] [--store PATH] [--migrations PATH] [--from SCHEMA] [--force]",
        ])
        // Options that apply only with another stand inside its brackets; a required one has none.
        #expect(try runCLI(["check", "--help"]).stdout.hasPrefix("usage: ckschema check [--format text|json|github|sarif|markdown] [--fail-on error|warning|review|note] [--config PATH] [--pull [--team-id T] [--container-id C] [--cktool PATH] [--timeout S] [--token-env NAME]]\n"))
        #expect(try runCLI(["push", "--help"]).stdout.hasPrefix("usage: ckschema push [SCHEMA] [--dry-run [--offline]] [-y] "))
        #expect(try runCLI(["changes", "--help"]).stdout.hasPrefix("usage: ckschema changes --zone Z [--since TOKEN] "))
        #expect(try runCLI(["query", "--help"]).stdout.hasPrefix("usage: ckschema query TYPE [--predicate P] [--sort FIELD[:desc]]... "))
        #expect(try runCLI(["completion", "--help"]).stdout.hasPrefix("usage: ckschema completion bash|zsh|fish\n"))
        // Two options that cannot be given together are one choice.
        #expect(try runCLI(["fmt", "--help"]).stdout.hasPrefix("usage: ckschema fmt [FILE|FOLDER...] [--check | -w] [--format "))
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
