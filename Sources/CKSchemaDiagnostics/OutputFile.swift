import Foundation
import CKSchemaModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An output file written a piece at a time, with `InputFile.write`'s guarantee: a regular
/// file is written to a temporary file beside it and renamed into place by `commit()`, so a
/// failed or abandoned write (an error, a thrown import) never leaves a half-written file, and
/// the file it replaces stays as it was until then. A device, FIFO or socket (`-o /dev/null`)
/// is written in place, as `InputFile.write` does. Every failure is CK007 with the system's
/// reason, worded as `InputFile.write` words it.
public final class OutputFile {
    /// The path asked for.
    public let path: String
    private var fd: Int32
    /// The temporary file renamed to `path` by `commit()`; nil when written in place.
    private let temporary: String?
    private var done = false

    /// Opens `path` for writing (`overwrite: false` refuses an existing file).
    public init(path: String, overwrite: Bool = true) throws(InputError) {
        self.path = path
        if !overwrite, FileManager.default.fileExists(atPath: path) {
            throw Self.failure(path, CocoaError(.fileWriteFileExists))
        }
        if InputFile.isSpecialFile(path) {
            let fd = open(path, O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else { throw Self.failure(path, Self.error(errno, path)) }
            self.fd = fd
            temporary = nil
            return
        }
        // Beside the file (a rename is atomic only within one file system), named as no file
        // the user keeps, created new (O_EXCL) with the mode a new file gets (0666 less umask).
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let name = url.lastPathComponent
        var attempt = 0
        while true {
            let candidate = (folder as NSString).appendingPathComponent(".\(name).ckschema-\(String(UInt64.random(in: 0...UInt64.max), radix: 36))")
            let fd = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if fd >= 0 {
                self.fd = fd
                temporary = candidate
                #if canImport(Darwin)
                // Foundation's atomic write keeps the replaced file's mode on Darwin (not on Linux).
                var info = stat()
                if stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG { _ = fchmod(fd, info.st_mode & 0o7777) }
                #endif
                return
            }
            let code = errno
            attempt += 1
            guard code == EEXIST, attempt < 100 else { throw Self.failure(path, Self.error(code, path)) }
        }
    }

    deinit { discard() }

    /// Appends bytes; on a failure the temporary file is removed.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(InputError) {
        precondition(!done, "OutputFile: written after commit or discard")
        guard var at = bytes.baseAddress else { return }
        var left = bytes.count
        while left > 0 {
            let n = systemWrite(fd, at, left)
            if n < 0 {
                let code = errno
                if code == EINTR { continue }
                discard()
                throw Self.failure(path, Self.error(code, path))
            }
            at += n
            left -= n
        }
    }

    /// Makes the file whole at `path`: flushed to the disk and renamed into place (a device is
    /// only closed). On a failure the temporary file is removed and `path` left as it was.
    public func commit() throws(InputError) {
        precondition(!done, "OutputFile: committed twice or after discard")
        if let temporary {
            // As Foundation's atomic write does: the data on the disk before the name points at it.
            if fsync(fd) != 0, errno != EINVAL {
                let code = errno
                discard()
                throw Self.failure(path, Self.error(code, path))
            }
            close(fd)
            done = true
            guard rename(temporary, path) == 0 else {
                let code = errno
                unlink(temporary)
                throw Self.failure(path, Self.error(code, path))
            }
        } else {
            close(fd)
            done = true
        }
    }

    /// Gives up the write: the temporary file is removed (a device is only closed). Nothing
    /// happens after `commit()` or a first `discard()`.
    public func discard() {
        guard !done else { return }
        done = true
        close(fd)
        if let temporary { unlink(temporary) }
    }

    /// The system's `write(2)` (inside `OutputFile`, `write` names its own method).
    private func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.write(fd, bytes, count)
        #else
        Darwin.write(fd, bytes, count)
        #endif
    }

    /// The error Foundation's file writing gives for `code`, so the message reads as
    /// `InputFile.write`'s does.
    private static func error(_ code: Int32, _ path: String) -> CocoaError {
        let kind: CocoaError.Code = switch code {
        case ENOENT: .fileNoSuchFile
        case EPERM, EACCES: .fileWriteNoPermission
        case ENAMETOOLONG: .fileWriteInvalidFileName
        case ENOSPC, EDQUOT: .fileWriteOutOfSpace
        case EROFS: .fileWriteVolumeReadOnly
        case EEXIST: .fileWriteFileExists
        default: .fileWriteUnknown
        }
        var info: [String: Any] = [NSFilePathErrorKey: path]
        if let posix = POSIXErrorCode(rawValue: code) { info[NSUnderlyingErrorKey] = POSIXError(posix) }
        return CocoaError(kind, userInfo: info)
    }

    private static func failure(_ path: String, _ error: CocoaError) -> InputError {
        InputError(Diagnostic(rule: InputRules.unwritable, "cannot write '\(path)': \(error.localizedDescription)",
                              at: SourceLocation(file: path, line: 1, column: 1), fix: "check that the folder exists and is writable"))
    }
}
