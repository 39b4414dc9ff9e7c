import Foundation
import Testing

/// A repository made by `init` (team ABCDE12345, container iCloud.com.example.Notes) and a
/// stand-in `xcrun` on PATH that plays cktool: it records each call's arguments (one a line)
/// and environment in `calls/`, outside the repository, then plays what the test asked for.
///
/// By default `export-schema` writes `live-<environment>.ckdb` (an empty schema when there is
/// none), `validate-schema` says `✅ Schema is valid.`, and the rest exit 0 saying nothing. A
/// file `play-<subcommand>` is sourced first, so it can print and `exit` as cktool does.
struct CKToolStandIn {
    var root: String
    var repo: String { root + "/repo" }
    var calls: String { root + "/calls" }
    var bin: String { root + "/bin" }
    static let token = "ckmt-SECRET-4f1e9a"

    init() throws {
        root = try makeTempDir("ckschema-deploy")
        let r = try runCLI(["init", root + "/repo", "--container", "iCloud.com.example.Notes"])
        #expect(r.code == 0, "\(r.stderr)")
        let config = try read(repo + "/ckschema.yaml") + "team: ABCDE12345\n"
        try Data(config.utf8).write(to: URL(fileURLWithPath: repo + "/ckschema.yaml"))
        for d in [calls, bin] { try FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true) }
        try writeScript(bin + "/xcrun", """
            #!/bin/sh
            D='\(root)'
            [ "$1" = cktool ] || { echo "xcrun: not cktool: $1" >&2; exit 64; }
            shift
            SUB=$1
            n=$(( $(cat "$D/calls/count" 2>/dev/null || echo 0) + 1 ))
            echo $n > "$D/calls/count"
            for a in "$@"; do printf '%s\\n' "$a"; done > "$D/calls/$n.args"
            env > "$D/calls/$n.env"
            echo "$SUB" >> "$D/calls/order"
            OUT=; ENV=
            while [ $# -gt 0 ]; do case "$1" in --output-file) OUT=$2;; --environment) ENV=$2;; esac; shift; done
            if [ -f "$D/play-$SUB" ]; then . "$D/play-$SUB"; fi
            case "$SUB" in
              export-schema) if [ -f "$D/live-$ENV.ckdb" ]; then cat "$D/live-$ENV.ckdb" > "$OUT"; else printf 'DEFINE SCHEMA\\n' > "$OUT"; fi ;;
              validate-schema) echo '✅ Schema is valid.' ;;
            esac
            exit 0
            """)
    }

    /// Makes `cktool SUBCOMMAND` run `body` (sh) first.
    func play(_ subcommand: String, _ body: String) throws {
        try Data(body.utf8).write(to: URL(fileURLWithPath: root + "/play-" + subcommand))
    }

    /// What `export-schema --environment E` writes.
    func live(_ environment: String, _ text: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: root + "/live-\(environment).ckdb"))
    }

    /// Runs ckschema in the repository with the stand-in first on PATH and the token set.
    func run(_ args: [String], token: Bool = true, path: String? = nil, environment: [String: String] = [:]) throws -> CLIResult {
        var env = ["PATH": path ?? (bin + ":/usr/bin:/bin"), "CKSCHEMA_CKTOOL": ""]
        if token { env["CLOUDKIT_MANAGEMENT_TOKEN"] = Self.token }
        for (k, v) in environment { env[k] = v }
        return try runCLI(args, cwd: repo, environment: env)
    }

    /// The subcommands cktool was called with, in order.
    func order() -> [String] {
        ((try? read(calls + "/order")) ?? "").split(separator: "\n").map(String.init)
    }

    /// The arguments of call `n` (1-based), `cktool` itself left out.
    func arguments(_ n: Int) throws -> [String] { try read(calls + "/\(n).args").split(separator: "\n").map(String.init) }

    /// The environment of call `n`.
    func environment(_ n: Int) throws -> String { try read(calls + "/\(n).env") }

    /// Every file of the repository, path and bytes, to compare before and after.
    func snapshot() throws -> [String: Data] {
        var out: [String: Data] = [:]
        let fm = FileManager.default
        guard let files = fm.enumerator(atPath: repo) else { return out }
        for case let path as String in files {
            var dir: ObjCBool = false
            if fm.fileExists(atPath: repo + "/" + path, isDirectory: &dir), !dir.boolValue { out[path] = fm.contents(atPath: repo + "/" + path) }
        }
        return out
    }

    func write(_ relative: String, _ text: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: repo + "/" + relative))
    }

    func cleanup() { try? FileManager.default.removeItem(atPath: root) }
}
