import Foundation
import Testing

/// `ckschema pull` and `check --pull`, with a stand-in cktool: a shell script that records
/// its arguments and writes what a test gives it (or fails as cktool does).
@Suite struct PullTests {
    /// A repository made by `init`, with `team:` added, and a stand-in cktool.
    struct Repo {
        var dir: String
        var cktool: String { dir + "/cktool" }
        var argsFile: String { dir + "/cktool.args" }

        init(team: Bool = true) throws {
            dir = try makeTempDir("ckschema-pull")
            let r = try runCLI(["init", dir, "--container", "iCloud.com.example.Notes"])
            #expect(r.code == 0, "\(r.stderr)")
            if team {
                let config = try read(dir + "/ckschema.yaml") + "team: ABCDE12345\n"
                try Data(config.utf8).write(to: URL(fileURLWithPath: dir + "/ckschema.yaml"))
            }
        }

        /// The stand-in: records each argument on a line, then runs `body` (with $OUT the
        /// value of --output-file).
        func standIn(_ body: String) throws {
            try writeScript(cktool, """
                #!/bin/sh
                for a in "$@"; do printf '%s\\n' "$a"; done > '\(argsFile)'
                OUT=
                while [ $# -gt 0 ]; do if [ "$1" = --output-file ]; then OUT=$2; fi; shift; done
                \(body)
                """)
        }

        func pull(_ args: [String], environment: [String: String] = [:]) throws -> CLIResult {
            try runCLI(["pull"] + args, cwd: dir, environment: environment)
        }

        /// Files in Schemas/ other than the ones init wrote: a temporary export left behind.
        func strayFiles() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: dir + "/Schemas").filter {
                !["development.yaml", "production.ckdb", "ckschema.schema.json"].contains($0)
            }
        }

        func cleanup() { try? FileManager.default.removeItem(atPath: dir) }
    }

    static let liveSchema = """
        DEFINE SCHEMA

            RECORD TYPE Note (
                "___createTime" TIMESTAMP,
                "___createdBy"  REFERENCE,
                "___etag"       STRING,
                "___modTime"    TIMESTAMP,
                "___modifiedBy" REFERENCE,
                "___recordID"   REFERENCE QUERYABLE,
                body            STRING,
                createdOn       TIMESTAMP QUERYABLE SORTABLE,
                title           STRING QUERYABLE SEARCHABLE SORTABLE,
                GRANT WRITE TO "_creator",
                GRANT CREATE TO "_icloud",
                GRANT READ TO "_world"
            );

        """

    @Test func pullRunsCktoolWithItsArgumentsAndWritesTheExportVerbatim() throws {
        let repo = try Repo()
        defer { repo.cleanup() }
        try repo.standIn("cat > \"$OUT\" <<'EOF'\n\(Self.liveSchema)EOF")
        let r = try repo.pull(["--cktool", repo.cktool])
        #expect(r.code == 0, "\(r.stderr)")
        #expect(r.stdout == "pulled the production schema (1 record type, \(Self.liveSchema.utf8.count) bytes) to Schemas/production.ckdb\n")
        #expect(try read(repo.dir + "/Schemas/production.ckdb") == Self.liveSchema)
        let args = try read(repo.argsFile).split(separator: "\n").map(String.init)
        #expect(Array(args.prefix(8)) == ["export-schema", "--team-id", "ABCDE12345", "--container-id", "iCloud.com.example.Notes",
                                          "--environment", "production", "--output-file"])
        // The temporary file is beside the destination (so the rename is atomic) and gone after.
        #expect(args.count == 9 && args[8].hasPrefix("Schemas/.production.ckdb.pull-"), "\(args)")
        #expect(try repo.strayFiles() == [])
        // The same export again changes nothing.
        #expect(try repo.pull(["--cktool", repo.cktool]).stdout == "Schemas/production.ckdb is up to date with the production schema (1 record type)\n")
    }

    @Test func theEnvironmentVariableNamesCktoolAndOptionsOverrideTheConfiguration() throws {
        let repo = try Repo()
        defer { repo.cleanup() }
        try repo.standIn("cat > \"$OUT\" <<'EOF'\n\(Self.liveSchema)EOF")
        let r = try repo.pull(["--env", "development", "--team-id", "TEAM200002", "--container-id", "iCloud.org.other.App", "-o", "dev.ckdb"],
                              environment: ["CKSCHEMA_CKTOOL": repo.cktool])
        #expect(r.code == 0, "\(r.stderr)")
        #expect(try read(repo.dir + "/dev.ckdb") == Self.liveSchema)
        let args = try read(repo.argsFile).split(separator: "\n").map(String.init)
        #expect(Array(args.prefix(7)) == ["export-schema", "--team-id", "TEAM200002", "--container-id", "iCloud.org.other.App", "--environment", "development"])
    }

    @Test func anExportThatDoesNotParseWritesNothing() throws {
        let repo = try Repo()
        defer { repo.cleanup() }
        let before = try read(repo.dir + "/Schemas/production.ckdb")
        try repo.standIn("printf 'DEFINE SCHEMA\\n RECORD TYPE Note (title STRNG);\\n' > \"$OUT\"")
        let r = try repo.pull(["--cktool", repo.cktool])
        #expect(r.code == 2)
        #expect(r.stderr.contains("[CK803]") && r.stderr.contains("nothing was written and 'Schemas/production.ckdb' is unchanged"), "\(r.stderr)")
        #expect(r.stderr.contains("<cktool export-schema>:2:"), "the parser's own diagnostic follows: \(r.stderr)")
        #expect(try read(repo.dir + "/Schemas/production.ckdb") == before)
        #expect(try repo.strayFiles() == [])
    }

    @Test func aFailingCktoolIsReportedWithItsOwnMessageAndTheTokenFix() throws {
        let repo = try Repo()
        defer { repo.cleanup() }
        let before = try read(repo.dir + "/Schemas/production.ckdb")
        // Half an export, then a failure: nothing of it may reach the destination.
        try repo.standIn("printf 'DEFINE SCHEMA\\n RECORD TYPE' > \"$OUT\"\necho 'Error: No management token is configured.' >&2\nexit 1")
        let r = try repo.pull(["--cktool", repo.cktool])
        #expect(r.code == 2)
        #expect(r.stderr.contains("cktool export-schema failed (exit 1): Error: No management token is configured. [CK802]"), "\(r.stderr)")
        #expect(r.stderr.contains("xcrun cktool save-token --type management"))
        #expect(try read(repo.dir + "/Schemas/production.ckdb") == before)
        #expect(try repo.strayFiles() == [])
    }

    @Test func withoutXcrunPullSaysWhereCktoolComesFrom() throws {
        let repo = try Repo()
        defer { repo.cleanup() }
        let r = try repo.pull([], environment: ["PATH": repo.dir + "/no-such-bin", "CKSCHEMA_CKTOOL": ""])
        #expect(r.code == 2)
        #expect(r.stderr.contains("cktool is not available: 'xcrun' is not on PATH") && r.stderr.contains("[CK801]"), "\(r.stderr)")
        #expect(r.stderr.contains("--cktool PATH"))
    }

    @Test func missingTeamAndBadArgumentsExitTwo() throws {
        let repo = try Repo(team: false)
        defer { repo.cleanup() }
        try repo.standIn("exit 0")
        let noTeam = try repo.pull(["--cktool", repo.cktool])
        #expect(noTeam.code == 2)
        #expect(noTeam.stderr.hasPrefix("ckschema pull: error: no team: pass --team-id T, or set 'team:' in ckschema.yaml"), "\(noTeam.stderr)")
        #expect(!FileManager.default.fileExists(atPath: repo.argsFile), "cktool must not run without a team")
        let badContainer = try repo.pull(["--cktool", repo.cktool, "--team-id", "TEAM100001", "--container-id", "com.example.App"])
        #expect(badContainer.code == 2 && badContainer.stderr.contains("[CK804]"), "\(badContainer.stderr)")
        let badEnv = try repo.pull(["--env", "staging", "--team-id", "TEAM100001"])
        #expect(badEnv.code == 2 && badEnv.stderr.contains("'staging' is not an environment"))
        let notExecutable = try repo.pull(["--team-id", "TEAM100001", "--cktool", repo.dir + "/ckschema.yaml"])
        #expect(notExecutable.code == 2 && notExecutable.stderr.contains("is not an executable cktool [CK801]"), "\(notExecutable.stderr)")
        let exitsZeroWritesNothing = try repo.pull(["--team-id", "TEAM100001", "--cktool", repo.cktool])
        #expect(exitsZeroWritesNothing.code == 2 && exitsZeroWritesNothing.stderr.contains("wrote no schema"))
    }

    @Test func checkPullRefreshesProductionThenGates() throws {
        let repo = try Repo()
        defer { repo.cleanup() }
        // Production holds a record type the development schema lacks: deleting it is forbidden.
        let live = Self.liveSchema + "    RECORD TYPE Draft (\n        text STRING\n    );\n"
        try repo.standIn("cat > \"$OUT\" <<'EOF'\n\(live)EOF")
        #expect(try runCLI(["check"], cwd: repo.dir).code == 0, "the empty production passes before the pull")
        let r = try runCLI(["check", "--pull", "--cktool", repo.cktool], cwd: repo.dir)
        #expect(r.code == 1, "\(r.stdout)\(r.stderr)")
        #expect(r.stderr.contains("pulled the production schema"))
        #expect(r.stdout.contains("Draft"), "\(r.stdout)")
        #expect(try read(repo.dir + "/Schemas/production.ckdb") == live)

        // The team and container can be given to check as to pull.
        let given = try runCLI(["check", "--pull", "--cktool", repo.cktool, "--team-id", "OTHER00001", "--container-id", "iCloud.com.example.Other"], cwd: repo.dir)
        #expect(given.code == 1)
        #expect(try read(repo.argsFile).hasPrefix("export-schema\n--team-id\nOTHER00001\n--container-id\niCloud.com.example.Other\n"))

        try repo.standIn("echo 'network is down' >&2; exit 3")
        let failed = try runCLI(["check", "--pull", "--cktool", repo.cktool], cwd: repo.dir)
        #expect(failed.code == 2 && failed.stderr.contains("network is down"), "\(failed.stderr)")
    }

    /// Issue #24, defect 9: cktool's time, output and export are bounded; the child (and its
    /// children) are killed and no temporary file is left.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self"), "counts processes through /proc"), arguments: [
        ("sleep 1000 & sleep 1000", "did not finish within 1 s and was stopped [CK802]"),
        ("yes xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", "wrote more than 1.0 MB of messages and was stopped [CK802]"),
        ("yes 'RECORD TYPE Users ( \"___createTime\" TIMESTAMP )' > \"$OUT\"", "export grew past 32.0 MB, the limit for a schema file; it was stopped and nothing was written [CK802]"),
    ])
    func aRunawayCktoolIsStopped(body: String, expected: String) throws {
        let repo = try Repo()
        defer { repo.cleanup() }
        try repo.standIn(body)
        let tmp = try makeTempDir("ckschema-pull-tmp")
        defer { try? FileManager.default.removeItem(atPath: tmp) }
        let r = try repo.pull(["--cktool", repo.cktool, "--timeout", "1", "-o", "Schemas/production.ckdb"], environment: ["TMPDIR": tmp])
        #expect(r.code == 2)
        #expect(r.stderr.contains(expected), "\(r.stderr)")
        #expect(try repo.strayFiles().isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp).isEmpty, "nothing left in TMPDIR")
        #expect(Self.running(in: repo.dir) == 0, "the stand-in and its children were killed")
    }

    /// Processes running in `dir` (the stand-in and what it started), through /proc.
    static func running(in dir: String) -> Int {
        let real = (dir as NSString).resolvingSymlinksInPath
        let pids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return pids.filter { Int($0) != nil }.filter {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\($0)/cwd")) == real
        }.count
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self"), "counts processes through /proc"))
    func aTerminatedPullKillsCktool() throws {
        let repo = try Repo()
        defer { repo.cleanup() }
        try repo.standIn("sleep 1000 & sleep 1000")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Paths.binary)
        p.arguments = ["pull", "--cktool", repo.cktool]
        p.currentDirectoryURL = URL(fileURLWithPath: repo.dir)
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        // Until the stand-in runs (it writes its arguments first).
        var waited = 0
        while !FileManager.default.fileExists(atPath: repo.argsFile), waited < 300 { usleep(20_000); waited += 1 }
        usleep(200_000)
        p.terminate()
        p.waitUntilExit()
        #expect(p.terminationReason == .uncaughtSignal && p.terminationStatus == SIGTERM)
        usleep(200_000)
        #expect(Self.running(in: repo.dir) == 0, "cktool outlived a terminated ckschema")
        #expect(try repo.strayFiles().isEmpty)
    }

    /// Issue #24: a team that is not a team ID never reaches cktool's command line.
    @Test func aTeamIDIsCheckedBeforeCktoolRuns() throws {
        let repo = try Repo()
        defer { repo.cleanup() }
        try repo.standIn("exit 0")
        let r = try repo.pull(["--cktool", repo.cktool, "--team-id", "--output-file=/etc/x"])
        #expect(r.code == 2)
        #expect(r.stderr == "ckschema: error: '--output-file=/etc/x' is not an Apple developer team identifier (10 capital letters and digits) [CK805]\nckschema: note: pass --team-id with the team ID shown under Membership in your Apple developer account, or set 'team:' in ckschema.yaml\n", "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: repo.argsFile))
    }
}
