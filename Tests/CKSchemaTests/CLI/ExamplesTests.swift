import Foundation
import Testing

/// Issue 22, point 3: every command of the README tour and of every `--help` example runs on
/// the Trailmark example in a fresh copy of the repository, through the built binary, with the
/// outcome its text promises. The commands are read from README.md and from each command's
/// `--help` (the command list from `ckschema --help`), never copied here: what is here is
/// each one's expected outcome, so a new example without one fails, and so does an expectation
/// whose example is gone.
///
/// Each example runs in its own fresh copy (ckschema.yaml, Schemas/, Migrations/) through
/// bash, with the binary first on PATH, after the setup its text takes for granted (the store
/// that `migrate apply` and `records import` fill, a plan file, a token). Placeholders that name
/// a user's own files (`schema.ckdb`, `App.xcdatamodeld`, `records.ndjson`, an export for `init
/// --from-production`) are real fixtures copied in; paths outside the repository (`/etc/...`,
/// `~/.config/...`, zsh's `${fpath[1]}`) are mapped into the copy.
@Suite struct ExamplesTests {
    struct Expect {
        var code: Int32
        /// Text the output (stdout then stderr) must contain.
        var says: String
        /// Commands run first, in the same copy.
        var setup: [String] = []
        /// Run in an empty folder (a new repository) instead of a copy of this one.
        var fresh = false
        /// In that folder, a cktool export as Schemas/production.ckdb (an app in production).
        var export = false
    }

    static let store = ["ckschema migrate apply", "ckschema records import --env development Schemas/fixtures/seed-trips.ndjson"]
    static let token = #"token=$(ckschema changes --zone Journal 2>/dev/null | tail -1 | python3 -c 'import json,sys; print(json.load(sys.stdin)["serverChangeToken"])' 2>/dev/null)"#

    /// The outcome of each example, keyed by its command (its comment left out).
    static let expected: [String: Expect] = [
        // README tour
        "ckschema init --container iCloud.com.example.Notes": Expect(code: 0, says: "next: edit Schemas/development.yaml", fresh: true),
        "ckschema init --from-production Schemas/production.ckdb --container iCloud.com.example.Notes": Expect(code: 0, says: "wrote ./Migrations/0001_baseline.yaml", fresh: true, export: true),
        "ckschema lint": Expect(code: 0, says: "ckschema lint: passed: 0 errors, 0 warnings"),
        "ckschema lint Schemas/development.yaml --format sarif > lint.sarif": Expect(code: 0, says: ""),
        "ckschema fmt --check": Expect(code: 0, says: ""),
        "ckschema fmt --write": Expect(code: 0, says: "ckschema fmt: 0 files rewritten, 2 files already canonical"),
        "ckschema diff": Expect(code: 0, says: "+ record type Companion"),
        "ckschema promote --check": Expect(code: 0, says: "ckschema promote: passed: 0 errors, 1 warning"),
        "ckschema promote --plan plan.json": Expect(code: 0, says: "wrote plan.json (23 steps: 21 safe, 2 review, 0 forbidden)"),
        "ckschema validate --env production records.ndjson": Expect(code: 0, says: "2 records"),
        "ckschema import schema.ckdb -o Schemas/development.yaml": Expect(code: 0, says: "merged into Schemas/development.yaml ("),
        "ckschema export --format ckdb -o schema.ckdb": Expect(code: 0, says: ""),
        "ckschema export --format jsonschema": Expect(code: 0, says: "\"$schema\""),
        "ckschema migrate status": Expect(code: 0, says: "0007_subscriptions  pending"),
        "ckschema migrate apply": Expect(code: 0, says: "applied 0007_subscriptions"),
        "ckschema migrate new add_title": Expect(code: 0, says: "nothing to migrate"),
        "ckschema migrate baseline": Expect(code: 2, says: "a baseline must be the first migration, and there is already 0001_initial.yaml"),
        "ckschema migrate hash": Expect(code: 0, says: "wrote Migrations/ckschema.sum (7 migrations)"),
        "ckschema records import --env development Schemas/fixtures/seed-trips.ndjson": Expect(code: 0, says: "saved 2 records to development", setup: ["ckschema migrate apply"]),
        "ckschema migrate apply --env production --to 2": Expect(code: 0, says: "applied 0002_public_trails"),
        "ckschema promote --apply plan.json": Expect(code: 0, says: "deployed the development schema to production in .ckschema/store.sqlite (23 changes",
                                                     setup: ["ckschema promote --plan plan.json", "ckschema migrate apply --env production --to 2"]),
        "ckschema check --format github": Expect(code: 0, says: "::warning file=Schemas/development.yaml"),
        // cktool needs macOS and a live container: here the refusal and its reason are the outcome.
        "ckschema pull --team-id ABCDE12345": Expect(code: 2, says: "pull writes what CloudKit exports verbatim"),
        "ckschema lint App/Models": Expect(code: 0, says: "ckschema lint: passed: 0 errors, 0 warnings, 2 notes"),
        "ckschema promote --check Schemas/production.ckdb App/Models": Expect(code: 0, says: "ckschema promote: passed"),
        "ckschema scan App": Expect(code: 0, says: "ckschema scan: passed: 0 errors, 0 warnings"),
        "ckschema scan App --format json": Expect(code: 0, says: "\"diagnostics\": []"),
        // Schemas/production.ckdb stands for another app's export here: its types are not Trailmark's.
        "ckschema scan App --schema Schemas/production.ckdb": Expect(code: 1, says: "ckschema scan: failed"),
        "ckschema generate swift -o Generated --access public": Expect(code: 0, says: "generated 7 files in Generated"),
        "ckschema generate swift Schemas/development.yaml -o Sources/App/CloudSchema --access public": Expect(code: 0, says: "generated 7 files in Sources/App/CloudSchema"),
        "ckschema push --dry-run --offline": Expect(code: 0, says: "push --offline: lint, the production gate and the .ckdb export"),
        "ckschema push --dry-run": Expect(code: 2, says: "no team: pass --team-id T"),
        "ckschema push --yes": Expect(code: 2, says: "no team: pass --team-id T"),
        "ckschema promote --plan plan.json --format markdown": Expect(code: 0, says: "Deploy in CloudKit Console"),
        "ckschema verify --env production --plan plan.json": Expect(code: 2, says: "no team: pass --team-id T", setup: ["ckschema promote --plan plan.json"]),
        "ckschema verify --env production --update": Expect(code: 2, says: "is not a .ckdb file"),
        "ckschema reset --env development --yes": Expect(code: 2, says: "no team: pass --team-id T"),
        "ckschema check --pull": Expect(code: 2, says: "no team: pass --team-id T"),
        "ckschema check --format markdown >> \"$GITHUB_STEP_SUMMARY\"": Expect(code: 0, says: ""),
        "ckschema json-schema -o Schemas/ckschema.schema.json": Expect(code: 0, says: ""),
        "ckschema completion zsh > \"${fpath[1]}/_ckschema\"": Expect(code: 0, says: ""),
        "ckschema lint App.xcdatamodeld": Expect(code: 0, says: "ckschema lint: passed"),
        "ckschema promote --check Schemas/production.ckdb App.xcdatamodeld": Expect(code: 0, says: "ckschema promote: passed"),
        "ckschema import App.xcdatamodeld -o Schemas/development.yaml": Expect(code: 0, says: "wrote Schemas/development.yaml"),
        "ckschema query Trip --predicate \"startedAt > CAST(740000000, 'NSDate')\" --sort startedAt:desc": Expect(code: 0, says: "\"recordName\":\"trip-0001\"", setup: store),
        "ckschema query Trip --predicate \"distanceMeters > 10000\"": Expect(code: 1, says: "Field 'distanceMeters' is not marked queryable", setup: store),
        "ckschema changes --zone Journal": Expect(code: 0, says: "{\"serverChangeToken\":", setup: store),
        "ckschema changes --zone Journal --since \"$token\"": Expect(code: 0, says: "{\"serverChangeToken\":", setup: store),
        // The waypoint's deleteSelf reference to the trip takes it with it (issue 32 point 7).
        "ckschema records delete --zone Journal trip-0001": Expect(code: 0, says: "deleted \"wp-0001\": its reference to \"trip-0001\" has the deleteSelf action\ndeleted 2 records from development", setup: store),
        "ckschema records delete --zone Journal trip-0001 --dry-run": Expect(code: 0, says: "would delete \"trip-0001\"\nwould delete \"wp-0001\": its reference to \"trip-0001\" has the deleteSelf action\nwould delete 2 records from development (--dry-run: nothing was deleted)", setup: store),
        "ckschema notifications --format text": Expect(code: 0, says: "journal-changes", setup: store),
        // --help examples
        "ckschema fmt --write Schemas/development.yaml": Expect(code: 0, says: "ckschema fmt: 0 files rewritten, 1 file already canonical"),
        "ckschema lint Schemas/development.yaml --format github": Expect(code: 0, says: ""),
        "ckschema diff Schemas/production.yaml Schemas/development.yaml --format json": Expect(code: 0, says: "\"changes\""),
        "ckschema promote --check --format github": Expect(code: 0, says: "::warning file=Schemas/development.yaml"),
        "ckschema validate --env production Schemas/fixtures/seed-trips.ndjson": Expect(code: 0, says: "2 records"),
        "ckschema export --format jsonschema Schemas/production.yaml -o records.schema.json": Expect(code: 0, says: ""),
        "ckschema migrate apply --env production --dry-run": Expect(code: 0, says: "dry run: would apply to production:"),
        "ckschema migrate status --format json": Expect(code: 0, says: "migrate status"),
        "ckschema records export --env development -o trips.ndjson": Expect(code: 0, says: "", setup: store),
        "ckschema pull --env development -o /tmp/dev.ckdb": Expect(code: 2, says: "cktool"),
        "ckschema completion bash > /etc/bash_completion.d/ckschema": Expect(code: 0, says: ""),
        "ckschema completion fish > ~/.config/fish/completions/ckschema.fish": Expect(code: 0, says: ""),
        "ckschema man > /usr/local/share/man/man1/ckschema.1": Expect(code: 0, says: ""),
        "ckschema man | man -l -": Expect(code: 0, says: ""),
        "ckschema query Trip --predicate \"startedAt > CAST(0, 'NSDate')\" --sort startedAt:desc": Expect(code: 0, says: "\"recordName\"", setup: store),
        "ckschema query Trip --predicate \"self CONTAINS 'alps'\" --limit 10 --format text": Expect(code: 0, says: "", setup: store),
        "ckschema records import --env development Schemas/fixtures/seed-trips.ndjson && ckschema changes --zone Journal --since \"$token\"":
            Expect(code: 0, says: "{\"serverChangeToken\":", setup: ["ckschema migrate apply"]),
        "ckschema records import Schemas/fixtures/seed-trips.ndjson && ckschema notifications --format text": Expect(code: 0, says: "journal-changes", setup: ["ckschema migrate apply"]),
    ]

    /// The README's shell lines that run ckschema, with their comments.
    static let readme: [String] = {
        let text = (try? read(Paths.root + "/README.md")) ?? ""
        return text.components(separatedBy: "```sh\n").dropFirst().flatMap { block in
            (block.components(separatedBy: "```").first ?? "").split(separator: "\n").map(String.init).filter { $0.hasPrefix("ckschema ") }
        }
    }()

    /// Each command's `--help` example lines.
    static let help: [String] = {
        guard let top = try? runCLI(["--help"]) else { return [] }
        let names = top.stdout.components(separatedBy: "commands:\n").dropFirst().first?.components(separatedBy: "\n\n").first?
            .split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) } ?? []
        return names.flatMap { name -> [String] in
            guard let h = try? runCLI([name, "--help"]) else { return [] }
            let tail = h.stdout.components(separatedBy: "example:\n").dropFirst().first ?? h.stdout.components(separatedBy: "examples:\n").dropFirst().first ?? ""
            return tail.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.hasPrefix("ckschema ") }
        }
    }()

    /// The command without its trailing comment.
    static func command(_ line: String) -> String {
        guard let r = line.range(of: #"\s+# "#, options: .regularExpression) else { return line }
        return String(line[..<r.lowerBound])
    }

    static var examples: [String] { Array(Set((readme + help).map(command))).sorted() }

    @Test func everyExampleHasAnExpectedOutcomeAndEveryOutcomeAnExample() {
        #expect(Self.readme.count > 20 && Self.help.count > 20, "README and help examples were read")
        #expect(Self.examples.filter { Self.expected[$0] == nil } == [], "examples without an expected outcome")
        #expect(Self.expected.keys.filter { !Self.examples.contains($0) }.sorted() == [], "outcomes without an example")
    }

    @Test(arguments: examples)
    func exampleRunsOnTrailmarkAsItsTextSays(_ example: String) throws {
        let expect = try #require(Self.expected[example], "no expected outcome for: \(example)")
        let dir = try makeTempDir("ckschema-example")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fm = FileManager.default
        if expect.fresh {
            try fm.createDirectory(atPath: dir + "/Schemas", withIntermediateDirectories: true)
            if expect.export { try fm.copyItem(atPath: Paths.fixture("ckdb/real/trailmark-export-v1.ckdb"), toPath: dir + "/Schemas/production.ckdb") }
        } else {
            for item in ["ckschema.yaml", "Schemas", "Migrations", "App"] { try fm.copyItem(atPath: Paths.root + "/" + item, toPath: dir + "/" + item) }
            // `App/Models`: a SwiftData app's models (the README's SwiftData lines).
            if example.contains("App/Models") { try fm.copyItem(atPath: Paths.fixture("swift/apps/Journal"), toPath: dir + "/App/Models") }
            try fm.copyItem(atPath: Paths.fixture("ckdb/real/trailmark-export-v2.ckdb"), toPath: dir + "/schema.ckdb")
            try fm.copyItem(atPath: Paths.fixture("coredata/DoneAndDone.xcdatamodeld"), toPath: dir + "/App.xcdatamodeld")
            try fm.copyItem(atPath: Paths.fixture("coredata/DoneAndDone-export.ckdb"), toPath: dir + "/Schemas/production.ckdb")
            try fm.copyItem(atPath: Paths.root + "/Schemas/fixtures/seed-trips.ndjson", toPath: dir + "/records.ndjson")
        }
        for sub in ["etc/bash_completion.d", "home/.config/fish/completions", "usr/local/share/man/man1", "fpath", "tmp"] {
            try fm.createDirectory(atPath: dir + "/" + sub, withIntermediateDirectories: true)
        }
        // Paths outside the repository, mapped into the copy.
        let mapped = example
            .replacingOccurrences(of: "\"${fpath[1]}\"", with: "fpath")
            .replacingOccurrences(of: "> /etc/", with: "> etc/")
            .replacingOccurrences(of: "> ~/", with: "> home/")
            .replacingOccurrences(of: "> /usr/", with: "> usr/")
            .replacingOccurrences(of: "-o /tmp/", with: "-o tmp/")
        let token = example.contains("$token") ? [Self.token] : []
        let script = (expect.setup.map { $0 + " > /dev/null 2>&1" } + token + [mapped]).joined(separator: "\n")
        let bin = URL(fileURLWithPath: Paths.binary).deletingLastPathComponent().path
        let r = try Tool.run("/bin/bash", ["-c", script], cwd: dir, environment: [
            "PATH": bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
            "GITHUB_STEP_SUMMARY": dir + "/summary.md", "HOME": dir + "/home",
        ])
        #expect(r.code == expect.code, "\(example)\n\(r.stdout)\n\(r.stderr)")
        #expect(expect.says.isEmpty || (r.stdout + r.stderr).contains(expect.says), "\(example)\n\(r.stdout)\n\(r.stderr)")
    }
}
