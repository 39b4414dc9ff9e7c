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
