import Foundation

/// Another program the integration tests drive (python3, bash, zsh, man, swift).
enum Tool {
    /// The executable named `name` on PATH, or nil.
    static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs `executable` with `arguments` and waits; output of both streams is returned.
    static func run(_ executable: String, _ arguments: [String], cwd: String? = nil, environment: [String: String] = [:],
                    replacingEnvironment: Bool = false) throws -> CLIResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let cwd { process.currentDirectoryURL = URL(fileURLWithPath: cwd) }
        var env = replacingEnvironment ? [:] : ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        process.environment = env
        // Files, not pipes: a long build's output cannot fill a pipe and block it.
        let dir = try makeTempDir("ckschema-tool")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let outPath = dir + "/out", errPath = dir + "/err"
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        return CLIResult(stdout: try read(outPath), stderr: try read(errPath), code: process.terminationStatus)
    }
}

/// Writes `text` to `path` as an executable script.
func writeScript(_ path: String, _ text: String) throws {
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
}
