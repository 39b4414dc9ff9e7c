import Foundation
import CKSchemaModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The system's `read(2)` (inside `InputFile`, `read` names its own function).
private func readBytes(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.read(fd, buffer, count)
    #else
    Darwin.read(fd, buffer, count)
    #endif
}

/// Reading an input file (a schema, a migration, a record file, a plan): every reader of
/// every language reads through here, with the same limits and the same diagnostics.
public enum InputFile {
    /// Schema files (YAML, `.ckdb`, a Core Data model's `contents`) larger than this are
    /// refused before parsing: real schemas are kilobytes.
    public static let schemaLimit = 32 * 1024 * 1024

    /// Reads a whole file, refusing one larger than `limit` bytes. Each way a read fails has
    /// its own words (issue 35 point 10): a missing file, a folder, a FIFO, a device, a socket,
    /// a file this user may not read, and an I/O error are told apart, and a FIFO or device is
    /// never opened for a blocking read (a FIFO with no writer hung the read).
    public static func read(path: String, limit: Int = schemaLimit) throws(InputError) -> Data {
        let loc = SourceLocation(file: path, line: 1, column: 1)
        let shown = ControlCharacters.escaped(path)
        func refuse(_ message: String, fix: String) -> InputError {
            InputError(Diagnostic(rule: InputRules.unreadable, message, at: loc, fix: fix))
        }
        // Non-blocking, so that opening a FIFO returns at once; the type is then checked on
        // the open file itself (no window for the path to change between a check and the open).
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            let code = errno
            switch code {
            case ENOENT, ENOTDIR:
                throw refuse("no such file '\(shown)'", fix: "check the path, or the paths in ckschema.yaml")
            case EACCES, EPERM:
                throw refuse("cannot read '\(shown)': this user may not read it (\(String(cString: strerror(code))))", fix: "check the file's permissions")
            case ELOOP:
                throw refuse("cannot read '\(shown)': its symbolic links loop", fix: "point the link at the file itself")
            default:
                throw refuse("cannot open '\(shown)': \(String(cString: strerror(code)))", fix: "check the path and the file system")
            }
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw refuse("cannot read '\(shown)': \(String(cString: strerror(errno)))", fix: "check the path and the file system")
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw refuse("'\(shown)' is a folder where a file was expected", fix: "give a file, or the folder's file itself")
        case S_IFIFO: throw refuse("'\(shown)' is a FIFO (a named pipe), not a file; ckschema reads its inputs whole from files", fix: "save the input to a file and give its path")
        case S_IFCHR, S_IFBLK: throw refuse("'\(shown)' is a device, not a file; ckschema reads its inputs from files", fix: "give the path of a file")
        case S_IFSOCK: throw refuse("'\(shown)' is a socket, not a file; ckschema reads its inputs from files", fix: "give the path of a file")
        default: throw refuse("'\(shown)' is not a regular file", fix: "give the path of a file")
        }
        if let size = Int(exactly: info.st_size), size > limit {
            throw refuse("file is \(TextBytes.formatBytes(size)); the limit for this kind of file is \(TextBytes.formatBytes(limit))", fix: "split the schema into several files in one folder")
        }
        // A regular file (O_NONBLOCK means nothing for one on Linux and Darwin): read to the
        // end in one loop. The buffer starts at the size `fstat` gave, plus one byte to see the
        // end; a file that grew while read grows it, never past `limit` + 1 bytes, and one
        // that reaches `limit` + 1 is refused.
        var data = Data(count: Swift.min(Swift.max(Int(exactly: info.st_size) ?? 0, 0), limit) + 1)
        var count = 0
        while true {
            if count == data.count {
                guard count <= limit else {
                    throw refuse("file is more than \(TextBytes.formatBytes(limit)), the limit for this kind of file", fix: "split the schema into several files in one folder")
                }
                data.count = Swift.min(limit + 1, count + Swift.max(count, 65_536))
            }
            let (n, failure) = data.withUnsafeMutableBytes { raw -> (Int, Int32) in
                let n = readBytes(fd, raw.baseAddress.map { $0 + count }, raw.count - count)
                return (n, n < 0 ? errno : 0)
            }
            if n == 0 { break }
            if n < 0 {
                if failure == EINTR { continue }
                throw refuse("an I/O error while reading '\(shown)' (\(String(cString: strerror(failure))))", fix: "the disk or file system failed the read: check it, or copy the file to another disk")
            }
            count += n
        }
        data.count = count
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
