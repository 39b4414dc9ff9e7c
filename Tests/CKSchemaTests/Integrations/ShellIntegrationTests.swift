import Foundation
import Testing

/// `ckschema completion bash|zsh|fish`, `ckschema man` and `--help`, all derived from the
/// options each command declares.
@Suite struct ShellIntegrationTests {
    /// Every command's name and options, as `--help` shows them (the source the others must follow).
    static func declared() throws -> [(command: String, options: [String])] {
        let top = try runCLI(["--help"]).stdout
        let names = top.split(separator: "\n").drop { !$0.hasPrefix("commands:") }.dropFirst()
            .prefix { $0.hasPrefix("  ") }.map { String($0.split(separator: " ")[0]) }
        return try names.map { name in
            let help = try runCLI([name, "--help"]).stdout
            let options = help.split(separator: "\n").drop { $0 != "options:" }.dropFirst()
                .compactMap { line -> String? in
                    guard let r = line.range(of: "--") else { return nil }
                    let word = line[r.lowerBound...].prefix { !$0.isWhitespace }
                    return line.hasPrefix("  -") ? String(word) : nil
                }
            return (name, options)
        }
    }

    @Test func bashCompletionIsValidAndCompletesCommandsOptionsAndValues() throws {
        let bash = try #require(Tool.find("bash"))
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let script = try runCLI(["completion", "bash"])
        #expect(script.code == 0)
        try Data(script.stdout.utf8).write(to: URL(fileURLWithPath: dir + "/ckschema.bash"))
        let syntax = try Tool.run(bash, ["-n", dir + "/ckschema.bash"])
        #expect(syntax.code == 0, "\(syntax.stderr)")

        func complete(_ words: [String]) throws -> [String] {
            let quoted = words.map { "'\($0)'" }.joined(separator: " ")
            let r = try Tool.run(bash, ["-c", """
                source '\(dir)/ckschema.bash'
                COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1)
                _ckschema
                printf '%s\\n' "${COMPREPLY[@]}"
                """])
            #expect(r.code == 0, "\(r.stderr)")
            return r.stdout.split(separator: "\n").map(String.init)
        }
        #expect(try complete(["ckschema", "pu"]) == ["pull", "push"])
        #expect(try complete(["ckschema", "lint", "--format", ""]) == ["text", "json", "github", "sarif", "markdown"])
        #expect(try complete(["ckschema", "pull", "--env", ""]) == ["production", "development"])
        #expect(try complete(["ckschema", "completion", ""]) == ["bash", "zsh", "fish"])
        #expect(try complete(["ckschema", "migrate", "st"]) == ["status"])
        for (command, options) in try Self.declared() {
            let offered = Set(try complete(["ckschema", command, "-"]))
            for o in options { #expect(offered.contains(o), "bash does not complete \(command) \(o)") }
        }
    }

    /// A project made by `init` (type `Note` in zone `Notes`) with a second type, `Tag`, and
    /// two migrations: what `completion names` and the scripts offer in it.
    static func namedProject() throws -> (root: String, repo: String) {
        let root = try makeTempDir()
        let repo = root + "/repo"
        #expect(try runCLI(["init", repo, "--container", "iCloud.com.example.Notes"]).code == 0)
        let path = repo + "/Schemas/development.yaml"
        let queries = "queries:\n"
        let text = try read(path)
        #expect(text.contains(queries))
        try Data(text.replacingOccurrences(of: queries, with: "  Tag:\n    fields:\n      name: { type: string }\n" + queries).utf8).write(to: URL(fileURLWithPath: path))
        #expect(try runCLI(["migrate", "new", "initial"], cwd: repo).code == 0)
        let more = try read(path).replacingOccurrences(of: "      name: { type: string }\n", with: "      name: { type: string }\n      color: { type: string }\n")
        try Data(more.utf8).write(to: URL(fileURLWithPath: path))
        #expect(try runCLI(["migrate", "new", "tag_color"], cwd: repo).code == 0)
        return (root, repo)
    }

    /// Issue 32 point 9: record types (`--type`, `query TYPE`), zones (`--zone`) and migration
    /// versions (`migrate apply --to`) complete with the project's names, which the scripts read
    /// from ckschema.yaml's schemas through the hidden `ckschema completion names` when Tab is
    /// pressed. Outside a project, or in a broken one, it prints nothing and exits 0.
    @Test func completionNamesPrintsTheProjectsNames() throws {
        let (root, repo) = try Self.namedProject()
        defer { try? FileManager.default.removeItem(atPath: root) }
        for (kind, expected) in [("types", "Note\nTag\n"), ("zones", "Notes\n_defaultZone\n"), ("custom-zones", "Notes\n"), ("migrations", "1\t0001_initial.yaml\n2\t0002_tag_color.yaml\n")] {
            let r = try runCLI(["completion", "names", kind], cwd: repo)
            #expect(r.code == 0 && r.stderr.isEmpty, "\(kind): \(r.stderr)")
            #expect(r.stdout == expected, "\(kind): \(r.stdout)")
            // From a folder below the project too, as every command finds ckschema.yaml.
            #expect(try runCLI(["completion", "names", kind], cwd: repo + "/Schemas").stdout == expected, "\(kind) below")
            // Outside a project: nothing, exit 0.
            let outside = try runCLI(["completion", "names", kind], cwd: root)
            #expect(outside.code == 0 && outside.stdout.isEmpty && outside.stderr.isEmpty, "\(kind) outside: \(outside.stdout)\(outside.stderr)")
        }
        let wrong = try runCLI(["completion", "names", "fields"], cwd: repo)
        #expect(wrong.code == 2)
        #expect(wrong.stderr == "ckschema completion: error: completion names takes one of types, zones, custom-zones or migrations\nusage: ckschema completion names KIND\n", "\(wrong.stderr)")
        // Hidden: the group's help, usage and the man page do not list it; its own help works.
        #expect(!(try runCLI(["completion", "--help"]).stdout.contains("  names")))
        // (The man page prints the group's help text, which says the scripts call it: no entry, no section.)
        let man = try runCLI(["man"]).stdout
        #expect(!man.contains(".B completion names") && !man.contains(".SS \"ckschema completion names\""), "\(man)")
        #expect(man.contains(".B completion bash"))
        #expect(try runCLI(["completion", "names", "--help"]).stdout.hasPrefix("usage: ckschema completion names KIND\n"))

        // A broken ckschema.yaml, then a schema that does not parse: nothing, exit 0.
        let config = try read(repo + "/ckschema.yaml")
        try Data((config + "schemas: [\n").utf8).write(to: URL(fileURLWithPath: repo + "/ckschema.yaml"))
        let broken = try runCLI(["completion", "names", "types"], cwd: repo)
        #expect(broken.code == 0 && broken.stdout.isEmpty && broken.stderr.isEmpty, "\(broken.stdout)\(broken.stderr)")
        try Data(config.utf8).write(to: URL(fileURLWithPath: repo + "/ckschema.yaml"))
        let schema = try read(repo + "/Schemas/development.yaml")
        try Data((schema + "\tbad: [\n").utf8).write(to: URL(fileURLWithPath: repo + "/Schemas/development.yaml"))
        let unparsed = try runCLI(["completion", "names", "zones"], cwd: repo)
        #expect(unparsed.code == 0 && unparsed.stdout.isEmpty && unparsed.stderr.isEmpty, "\(unparsed.stdout)\(unparsed.stderr)")
        // Migrations complete from their file names: a file that does not parse still does, a
        // file not named NNNN_name.yaml or whose name a shell would expand does not.
        try Data(schema.utf8).write(to: URL(fileURLWithPath: repo + "/Schemas/development.yaml"))
        for name in ["0003_broken.yaml", "0004_$(touch pwned).yaml", "notes.yaml"] {
            try Data("steps: [\n".utf8).write(to: URL(fileURLWithPath: repo + "/Migrations/" + name))
        }
        #expect(try runCLI(["completion", "names", "migrations"], cwd: repo).stdout == "1\t0001_initial.yaml\n2\t0002_tag_color.yaml\n3\t0003_broken.yaml\n")
    }

    /// A name a shell would run or split (`$(...)`, a space, a quote, a control character) never
    /// comes out of `completion names`, and a bash completion in a project that has one runs nothing.
    @Test func completionNamesNeverHandsTheShellAnExpansion() throws {
        let bash = try #require(Tool.find("bash"))
        let (root, repo) = try Self.namedProject()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let path = repo + "/Schemas/development.yaml"
        let hostile = "  \"X$(touch pwned)\":\n    fields:\n      a: { type: string }\n  \"Y`touch pwned2` z\\u001B]0;t\\u0007\":\n    fields:\n      a: { type: string }\n"
        try Data(try read(path).replacingOccurrences(of: "queries:\n", with: hostile + "queries:\n").utf8).write(to: URL(fileURLWithPath: path))
        let r = try runCLI(["completion", "names", "types"], cwd: repo)
        #expect(r.code == 0)
        // The schema still loads (lint reports the two names, CK101); only the safe names come out.
        #expect(r.stdout == "Note\nTag\n", "\(r.stdout)")
        try Data(try runCLI(["completion", "bash"]).stdout.utf8).write(to: URL(fileURLWithPath: root + "/ckschema.bash"))
        let bin = (Paths.binary as NSString).deletingLastPathComponent
        let done = try Tool.run(bash, ["-c", "source '\(root)/ckschema.bash'; COMP_WORDS=(ckschema query ''); COMP_CWORD=2; _ckschema; printf '%s\\n' \"${COMPREPLY[@]}\""],
                                cwd: repo, environment: ["PATH": bin + ":/usr/bin:/bin"])
        #expect(done.code == 0, "\(done.stderr)")
        #expect(done.stdout == "Note\nTag\n", "\(done.stdout)")
        #expect(!FileManager.default.fileExists(atPath: repo + "/pwned") && !FileManager.default.fileExists(atPath: repo + "/pwned2"))
    }

    /// Issue 32 point 9 through a real bash: the completion function `complete` registers
    /// offers the project's names after `--type`, `--zone`, `--to` and `query`, and nothing
    /// outside a project.
    @Test func bashCompletesTheProjectsNames() throws {
        let bash = try #require(Tool.find("bash"))
        let (root, repo) = try Self.namedProject()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Data(try runCLI(["completion", "bash"]).stdout.utf8).write(to: URL(fileURLWithPath: root + "/ckschema.bash"))
        let bin = (Paths.binary as NSString).deletingLastPathComponent
        /// What bash offers for `line` (the word being completed last), through the function
        /// `complete -p ckschema` names, as bash calls it on Tab.
        func complete(_ words: [String], in cwd: String) throws -> [String] {
            let quoted = words.map { "'\($0)'" }.joined(separator: " ")
            let r = try Tool.run(bash, ["-c", """
                source '\(root)/ckschema.bash'
                f=$(complete -p ckschema | sed -n 's/.*-F \\([^ ]*\\) .*/\\1/p')
                COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1)
                COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}
                "$f" ckschema "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
                printf '%s\\n' "${COMPREPLY[@]}"
                """], cwd: cwd, environment: ["PATH": bin + ":/usr/bin:/bin"])
            #expect(r.code == 0, "\(r.stderr)")
            return r.stdout.split(separator: "\n").map(String.init)
        }
        #expect(try complete(["ckschema", "records", "export", "--type", ""], in: repo) == ["Note", "Tag"])
        #expect(try complete(["ckschema", "records", "export", "--type", "T"], in: repo) == ["Tag"])
        #expect(try complete(["ckschema", "query", ""], in: repo) == ["Note", "Tag"])
        #expect(try complete(["ckschema", "query", "Note", "--zone", ""], in: repo) == ["Notes", "_defaultZone"])
        #expect(try complete(["ckschema", "changes", "--zone", "N"], in: repo) == ["Notes"])
        // changes takes a custom zone only (the default zone has no changes to fetch, CK730).
        #expect(try complete(["ckschema", "changes", "--zone", ""], in: repo) == ["Notes"])
        #expect(try complete(["ckschema", "records", "delete", "--zone", "_"], in: repo) == ["_defaultZone"])
        #expect(try complete(["ckschema", "migrate", "apply", "--to", ""], in: repo) == ["1", "2"])
        // Before the subcommand's word too (the group offers every subcommand's options).
        #expect(try complete(["ckschema", "migrate", "--to", ""], in: repo) == ["1", "2"])
        #expect(try complete(["ckschema", "query", ""], in: root) == [])
        #expect(try complete(["ckschema", "records", "export", "--type", ""], in: root) == [])
    }

    /// The same names in fish (`complete -C`), and zsh's script asks for them where bash does.
    @Test(.enabled(if: Tool.find("fish") != nil, "fish is not installed; 'complete -C' on the fish completion needs it"))
    func fishCompletesTheProjectsNames() throws {
        let fish = try #require(Tool.find("fish"))
        let (root, repo) = try Self.namedProject()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Data(try runCLI(["completion", "fish"]).stdout.utf8).write(to: URL(fileURLWithPath: root + "/ckschema.fish"))
        let bin = (Paths.binary as NSString).deletingLastPathComponent
        func complete(_ line: String, in cwd: String) throws -> [String] {
            let r = try Tool.run(fish, ["--no-config", "-c", "source '\(root)/ckschema.fish'; complete -C'\(line)'"], cwd: cwd,
                                 environment: ["PATH": bin + ":/usr/bin:/bin"])
            #expect(r.code == 0, "\(r.stderr)")
            return r.stdout.split(separator: "\n").map(String.init)
        }
        // fish shows the option's help beside a name, and each version's file beside it.
        #expect(try complete("ckschema records export --type ", in: repo) == ["Note\texport only records of this type", "Tag\texport only records of this type"])
        #expect(try complete("ckschema changes --zone ", in: repo) == ["Notes\tthe custom zone (required)"])
        #expect(try complete("ckschema migrate apply --to ", in: repo) == ["1\t0001_initial.yaml", "2\t0002_tag_color.yaml"])
        #expect(try complete("ckschema query N", in: repo) == ["Note"])
        #expect(try complete("ckschema records export --type ", in: root) == [])
    }

    /// zsh's `_ckschema_names`, which the script's `_arguments` actions call, run in a real zsh
    /// with `compadd` standing in (it prints what it is given): the project's names, the
    /// versions without their files, and nothing outside a project.
    @Test(.enabled(if: Tool.find("zsh") != nil, "zsh is not installed; running the zsh completion's name function needs it"))
    func zshOffersTheProjectsNames() throws {
        let zsh = try #require(Tool.find("zsh"))
        let (root, repo) = try Self.namedProject()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let script = try runCLI(["completion", "zsh"]).stdout
        let start = try #require(script.range(of: "_ckschema_names() {\n"))
        let end = try #require(script[start.upperBound...].range(of: "\n}\n"))
        let function = String(script[start.lowerBound..<end.upperBound])
        let bin = (Paths.binary as NSString).deletingLastPathComponent
        func names(_ kind: String, in cwd: String) throws -> String {
            let r = try Tool.run(zsh, ["-f", "-c", "compadd() { local n; [[ $1 == -a ]] && for n in \"${(@P)2}\"; do print -r -- \"$n\"; done }\n" + function + "_ckschema_names \(kind)\n"],
                                 cwd: cwd, environment: ["PATH": bin + ":/usr/bin:/bin"])
            #expect(r.code == 0, "\(r.stderr)")
            return r.stdout
        }
        #expect(try names("types", in: repo) == "Note\nTag\n")
        #expect(try names("zones", in: repo) == "Notes\n_defaultZone\n")
        #expect(try names("migrations", in: repo) == "1\n2\n")
        // Not even an empty candidate.
        #expect(try names("types", in: root) == "")
    }

    /// Every option that takes a project name asks for it in each script, and no other does.
    @Test func everyNameOptionAsksForTheProjectsNamesInEachScript() throws {
        let bash = try runCLI(["completion", "bash"]).stdout
        let zsh = try runCLI(["completion", "zsh"]).stdout
        let fish = try runCLI(["completion", "fish"]).stdout
        // (the words before the option, the option, the names)
        let named: [(String, String, String)] = [
            ("records export", "--type", "types"), ("query", "--zone", "zones"), ("changes", "--zone", "custom-zones"),
            ("records delete", "--zone", "zones"), ("migrate apply", "--to", "migrations"),
        ]
        #expect(bash.components(separatedBy: ") _ckschema_names ").count - 1 == named.count + 3, "bash: each option in its subcommand's branch, and --type, --zone and --to again in their group's")
        #expect(bash.contains("if [ \"$COMP_CWORD\" -eq 2 ]; then _ckschema_names types; return 0; fi\n"))
        #expect(zsh.contains("'1:types:_ckschema_names types' \\\n"))
        #expect(fish.contains("complete -c ckschema -n '__fish_seen_subcommand_from query' -a '(ckschema completion names types 2>/dev/null)'\n"), "\(fish)")
        for (words, option, kind) in named {
            let line = try #require(bash.components(separatedBy: "\n").first { $0.hasSuffix("\(option)) _ckschema_names \(kind); return 0 ;;") }, "bash: \(words) \(option)")
            #expect(!line.isEmpty)
            #expect(zsh.contains("'\(option)[") && zsh.contains(":_ckschema_names \(kind)' \\\n"), "zsh: \(words) \(option)")
            let sub = words.split(separator: " ").last.map(String.init) ?? words
            #expect(fish.split(separator: "\n").contains { $0.contains(sub) && $0.contains(" -l \(option.dropFirst(2)) -x -a '(ckschema completion names \(kind) 2>/dev/null)' -d ") }, "fish: \(words) \(option)")
        }
    }

    @Test func zshAndFishScriptsNameEveryCommandAndOption() throws {
        let zsh = try runCLI(["completion", "zsh"]).stdout
        let fish = try runCLI(["completion", "fish"]).stdout
        for (command, options) in try Self.declared() {
            #expect(zsh.contains("        \(command))"), "zsh lacks \(command)")
            #expect(fish.contains("__fish_seen_subcommand_from \(command)'"), "fish lacks \(command)")
            for o in options {
                #expect(zsh.contains(o + "["), "zsh lacks \(command) \(o)")
                #expect(fish.contains(" -l " + o.dropFirst(2) + " ") || fish.contains(" -l " + o.dropFirst(2) + "\n"), "fish lacks \(command) \(o)")
            }
        }
        #expect(zsh.contains("--format[report format (default\\: text)]:value:(text json github sarif markdown)"))
    }

    @Test(.enabled(if: Tool.find("zsh") != nil, "zsh is not installed; 'zsh -n' on the zsh completion needs it"))
    func zshParsesItsScript() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let z = try #require(Tool.find("zsh"))
        try Data(try runCLI(["completion", "zsh"]).stdout.utf8).write(to: URL(fileURLWithPath: dir + "/_ckschema"))
        let r = try Tool.run(z, ["-n", dir + "/_ckschema"])
        #expect(r.code == 0, "\(r.stderr)")
    }

    @Test(.enabled(if: Tool.find("fish") != nil, "fish is not installed; 'fish -n' and 'complete -C' on the fish completion need it"))
    func fishParsesAndCompletes() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let f = try #require(Tool.find("fish"))
        try Data(try runCLI(["completion", "fish"]).stdout.utf8).write(to: URL(fileURLWithPath: dir + "/ckschema.fish"))
        let r = try Tool.run(f, ["-n", dir + "/ckschema.fish"])
        #expect(r.code == 0, "\(r.stderr)")
        // fish completes non-interactively: `complete -C` prints the candidates.
        func complete(_ line: String) throws -> [String] {
            let r = try Tool.run(f, ["--no-config", "-c", "source '\(dir)/ckschema.fish'; complete -C'\(line)'"])
            return r.stdout.split(separator: "\n").map { String($0.split(separator: "\t")[0]) }
        }
        #expect(try complete("ckschema lint --format ") == ["github", "json", "markdown", "sarif", "text"])
        #expect(try complete("ckschema pu").sorted() == ["pull", "push"])
        #expect(try complete("ckschema pull --env ").sorted() == ["development", "production"])
        #expect(try complete("ckschema check --p") == ["--pull"])
    }

    @Test func unknownShellExitsTwo() throws {
        let r = try runCLI(["completion", "powershell"])
        #expect(r.code == 2)
        #expect(r.stderr == "ckschema completion: error: 'powershell' is not a shell ckschema completes; use bash, zsh or fish\nusage: ckschema completion bash|zsh|fish\n")
        let hostile = try runCLI(["completion", "x\u{1B}]0;owned\u{07}"])
        #expect(hostile.code == 2 && !hostile.stderr.contains("\u{1B}"), "control characters are escaped")
        #expect(try runCLI(["completion"]).code == 2)
    }

    @Test func manPageNamesEveryCommandAndOption() throws {
        let page = try runCLI(["man"])
        #expect(page.code == 0)
        #expect(page.stdout.hasPrefix(".TH CKSCHEMA 1 "))
        // roff writes each '-' as '\\-'.
        func roff(_ s: String) -> String { s.replacingOccurrences(of: "-", with: "\\-") }
        for (command, options) in try Self.declared() {
            #expect(page.stdout.contains(roff(command)), "man lacks \(command)")
            for o in options { #expect(page.stdout.contains(roff(o)), "man lacks \(command) \(o)") }
        }
    }

    @Test(.enabled(if: Tool.find("man") != nil, "man is not installed (apt-get install man-db groff); 'man -l' on the page needs it"))
    func manRendersThePageWithoutWarnings() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let page = try runCLI(["man"])
        try Data(page.stdout.utf8).write(to: URL(fileURLWithPath: dir + "/ckschema.1"))
        let man = try #require(Tool.find("man"))
        let r = try Tool.run(man, ["--warnings", "-l", dir + "/ckschema.1"], environment: ["MANPAGER": "cat", "MANWIDTH": "100", "LC_ALL": "C"])
        #expect(r.code == 0, "\(r.stderr)")
        #expect(r.stderr.isEmpty, "roff warnings: \(r.stderr)")
        #expect(r.stdout.contains("CKSCHEMA(1)"))
        for (command, options) in try Self.declared() {
            #expect(r.stdout.contains("ckschema \(command)"), "man lacks \(command)")
            for o in options { #expect(r.stdout.contains(o), "man lacks \(command) \(o)") }
        }
    }

    /// An option with a default is optional, so usage shows it in brackets.
    @Test func helpShowsDefaultedOptionsAsOptional() throws {
        let lint = try runCLI(["lint", "--help"]).stdout
        #expect(lint.hasPrefix("usage: \(LintCommandUsage.text)\n"))
        #expect(lint.contains("  --format text|json|github|sarif|markdown\n"))
        #expect(lint.contains("report format (default: text)"))
        for (command, _) in try Self.declared() {
            let help = try runCLI([command, "--help"]).stdout
            let usage = String(help.split(separator: "\n")[0])
            // Each option named in usage that says "(default: ...)" in its help stands inside brackets.
            let optionsPart = help.components(separatedBy: "\noptions:\n").last ?? ""
            var current: String?
            for line in optionsPart.split(separator: "\n") {
                if line.hasPrefix("  -"), let r = line.range(of: "--") { current = String(line[r.lowerBound...].prefix { !$0.isWhitespace }) }
                guard let name = current, line.contains("(default:") || line.contains("default:") else { continue }
                guard let at = usage.range(of: name + " ") ?? usage.range(of: name + "]") else { continue }
                let before = usage[..<at.lowerBound]
                let opened = before.filter { $0 == "[" }.count - before.filter { $0 == "]" }.count
                #expect(opened > 0, "\(command): \(name) has a default but usage shows it as required: \(usage)")
            }
        }
    }
}
