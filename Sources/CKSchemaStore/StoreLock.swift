import Foundation
import CKSchemaDiagnostics
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

private struct LockBusy: Error {}

/// Who holds the store's migration lock.
public struct StoreLockHolder: Sendable, Hashable, CustomStringConvertible {
    public var pid: Int
    public var host: String
    public var command: String
    public var acquiredAt: String

    public var description: String { "pid \(pid) on host '\(host)' (\(command), since \(acquiredAt))" }
}

/// The lock that keeps two `migrate apply` runs apart: a row in the store's `lock` table naming
/// the holder's pid and host. SQLite's own write lock (BEGIN IMMEDIATE) makes taking it atomic;
/// a row whose process is gone (same host, pid not alive or reused) is stale and is taken over.
package final class StoreLock {
    let store: Store
    let token: String
    package private(set) var recovered: StoreLockHolder?
    private var held = false

    private init(store: Store) {
        self.store = store
        token = UUID().uuidString
    }

    deinit { release() }

    /// Takes the lock, waiting up to `timeout` seconds for another holder. Throws CK505 naming the holder.
    package static func acquire(_ store: Store, timeout: Double, command: String) throws(InputError) -> StoreLock {
        let lock = StoreLock(store: store)
        let deadline = Date().addingTimeInterval(max(0, timeout))
        let me = (pid: Int(getpid()), start: processStart(Int(getpid())), host: hostName())
        var lastHolder: StoreLockHolder?
        while true {
            do {
                // Read the lock row first, without a write transaction: a reader is not blocked by
                // the holder's open migration, so the holder can be named even when it is mid-write.
                if let row = try store.db.rows("SELECT pid, pid_start, host, command, acquired_at FROM lock WHERE id = 1").first {
                    let holder = StoreLockHolder(pid: Int(row[0].integer ?? 0), host: row[2].text ?? "", command: row[3].text ?? "", acquiredAt: row[4].text ?? "")
                    if holder.host != me.host || isAlive(pid: holder.pid, start: row[1].text ?? "") {
                        lastHolder = holder
                        if Date() >= deadline { throw LockBusy() }
                        usleep(100_000)
                        continue
                    }
                }
                // Clamped: `--lock-timeout 1e300` must not trap the conversion to milliseconds.
                let remaining = min(max(0, deadline.timeIntervalSinceNow), 2_000_000)
                try store.db.setBusyTimeout(milliseconds: Int(remaining * 1000) + 50)
                let result: StoreLockHolder? = try store.db.transaction {
                    if let row = try store.db.rows("SELECT pid, pid_start, host, command, acquired_at FROM lock WHERE id = 1").first {
                        let holder = StoreLockHolder(pid: Int(row[0].integer ?? 0), host: row[2].text ?? "", command: row[3].text ?? "", acquiredAt: row[4].text ?? "")
                        guard holder.host == me.host, !isAlive(pid: holder.pid, start: row[1].text ?? "") else { return holder }
                        lock.recovered = holder
                        try store.db.run("DELETE FROM lock WHERE id = 1")
                    }
                    try store.db.run("INSERT INTO lock VALUES (1, ?, ?, ?, ?, ?, ?)", [
                        .integer(Int64(me.pid)), .text(me.start), .text(me.host), .text(command), .text(Store.now()), .text(lock.token),
                    ])
                    return nil
                }
                if result == nil {
                    lock.held = true
                    try? store.db.setBusyTimeout(milliseconds: 5000)
                    return lock
                }
                lastHolder = result
            } catch is LockBusy {
                // The deadline passed while a live holder kept the lock.
            } catch let e as SQLiteError where e.isBusy {
                // Another process is mid-transaction; its lock row says who when we can read it.
            } catch {
                throw Store.wrap(error, path: store.path, doing: "take the store's lock")
            }
            if Date() >= deadline {
                let who = lastHolder.map { "by \($0)" } ?? "by another process writing to it"
                throw InputError(Diagnostic(rule: StoreRules.locked, "the store '\(store.path)' is locked \(who); waited \(formatSeconds(timeout))",
                                        at: nil, fix: "wait for it to finish and run again, or raise --lock-timeout; a lock left by a process that is gone is taken over automatically"))
            }
            usleep(100_000)
        }
    }

    /// Releases the lock if this process holds it.
    package func release() {
        guard held else { return }
        held = false
        try? store.db.run("DELETE FROM lock WHERE token = ?", [.text(token)])
    }

    /// Whether `pid` is a live process that started at `start` (when the start is known).
    static func isAlive(pid: Int, start: String) -> Bool {
        guard pid > 0 else { return false }
        if kill(pid_t(pid), 0) != 0 && errno == ESRCH { return false }
        let now = processStart(pid)
        // A different start time means the pid was reused by another process: the holder is gone.
        if !start.isEmpty, !now.isEmpty, now != start { return false }
        return true
    }

    /// The process's start time (Linux: field 22 of /proc/PID/stat), or "" where unknown.
    static func processStart(_ pid: Int) -> String {
        #if os(Linux)
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return "" }
        let fields = text[text.index(after: close)...].split(separator: " ")
        return fields.count > 19 ? String(fields[19]) : ""
        #else
        return ""
        #endif
    }

    static func hostName() -> String {
        var buf = [CChar](repeating: 0, count: 256)
        guard gethostname(&buf, buf.count) == 0 else { return "localhost" }
        return String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func formatSeconds(_ s: Double) -> String {
        s == s.rounded() ? "\(Int(s))s" : String(format: "%.1fs", s)
    }
}
