import Foundation
import CKSchemaModel

/// Reading an input file (a schema, a migration, a record file, a plan): every reader of
/// every language reads through here, with the same limits and the same diagnostics.
public enum InputFile {
    /// Schema files (YAML, `.ckdb`, a Core Data model's `contents`) larger than this are
    /// refused before parsing: real schemas are kilobytes.
    public static let schemaLimit = 32 * 1024 * 1024

    /// Reads a whole file, refusing one larger than `limit` bytes.
    public static func read(path: String, limit: Int = schemaLimit) throws(InputError) -> Data {
        let loc = SourceLocation(file: path, line: 1, column: 1)
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
            throw InputError(Diagnostic(rule: InputRules.unreadable, "no such file '\(path)'", at: loc, fix: "check the path, or the paths in ckschema.yaml"))
        }
        if isDir.boolValue {
            throw InputError(Diagnostic(rule: InputRules.unreadable, "'\(path)' is a folder where a file was expected", at: loc))
        }
        if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size > limit {
            throw InputError(Diagnostic(
                rule: InputRules.unreadable,
                "file is \(TextBytes.formatBytes(size)); the limit for this kind of file is \(TextBytes.formatBytes(limit))",
                at: loc, fix: "split the schema into several files in one folder"))
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw InputError(Diagnostic(rule: InputRules.unreadable, "cannot read '\(path)'", at: loc, fix: "check the file's permissions"))
        }
        return data
    }

    /// Writes `data` to `path` atomically (a temporary file renamed into place), so a failed
    /// or interrupted write never leaves a half-written file; `overwrite: false` refuses an
    /// existing file. A device, FIFO or socket (`-o /dev/null`, `/dev/stdout`) is written in
    /// place: an atomic write would rename a new regular file over it (as root, over /dev/null
    /// itself). Throws CK007 with the system's reason.
    public static func write(_ data: Data, to path: String, overwrite: Bool = true) throws(InputError) {
        do {
            if !overwrite, FileManager.default.fileExists(atPath: path) {
                throw CocoaError(.fileWriteFileExists)
            }
            if isSpecialFile(path) {
                guard let handle = FileHandle(forWritingAtPath: path) else { throw CocoaError(.fileWriteNoPermission) }
                defer { try? handle.close() }
                try handle.write(contentsOf: data)
                return
            }
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw InputError(Diagnostic(rule: InputRules.unwritable, "cannot write '\(path)': \(error.localizedDescription)",
                                    at: SourceLocation(file: path, line: 1, column: 1), fix: "check that the folder exists and is writable"))
        }
    }

    /// True when `path` exists (symbolic links followed) and is neither a regular file nor a
    /// folder: a device, a FIFO or a socket.
    static func isSpecialFile(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        let type = info.st_mode & S_IFMT
        return type != S_IFREG && type != S_IFDIR
    }

    /// Creates the folder at `path` (and its parents) when it does not exist; CK007 when it cannot.
    public static func createFolder(_ path: String) throws(InputError) {
        do { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) } catch {
            throw InputError(Diagnostic(rule: InputRules.unwritable, "cannot create the folder '\(path)': \(error.localizedDescription)",
                                        at: SourceLocation(file: path, line: 1, column: 1), fix: "check that its parent folder is writable"))
        }
    }

    /// Writes text (UTF-8) as `write(_:to:overwrite:)` does.
    public static func write(_ text: String, to path: String, overwrite: Bool = true) throws(InputError) {
        try write(Data(text.utf8), to: path, overwrite: overwrite)
    }
}
