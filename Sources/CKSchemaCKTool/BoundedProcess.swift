import Foundation

/// Runs another program (cktool) with bounded time and output: what `pull` uses, and what
/// every command that drives cktool reuses (docs/security.md, "Other programs").
///
/// - The child runs in a process group of its own; on timeout, on too much output, on a
///   watched file that grows past its limit, and when ckschema itself is interrupted or
///   terminated (SIGINT, SIGTERM, SIGHUP), the whole group is killed (SIGKILL), so a script
///   standing in for cktool takes its own children with it.
/// - Its standard output and error go to one pipe read as it writes: at most
///   `Limits.output` bytes are kept, and more ends the run (no log file in `$TMPDIR`).
/// - `removeOnTermination` names files deleted when ckschema is terminated while the child
///   runs (the caller deletes them itself otherwise).
///
/// A process killed with SIGKILL cannot act; its child then runs on until its own end.
package enum BoundedProcess {
    /// The bounds of one run.
    package struct Limits: Sendable {
        /// Seconds the child may run, output read and exit included.
        package var seconds: Double
        /// Bytes of standard output and error kept; writing more ends the run.
        package var output: Int
        /// A file the child writes, with the largest size it may reach (`pull`'s export).
        package var file: (path: String, bytes: Int)?

        package init(seconds: Double, output: Int = 1 << 20, file: (path: String, bytes: Int)? = nil) {
            self.seconds = seconds
            self.output = output
            self.file = file
        }
    }

    /// How a run ended.
    package enum Ending: Sendable, Equatable {
        /// The child exited with this status.
        case exited(Int32)
        /// The child was ended by this signal, not by ckschema.
        case signalled(Int32)
        /// It ran past `Limits.seconds` and was killed.
        case timedOut
        /// It wrote more than `Limits.output` bytes and was killed.
        case outputTooLarge
        /// The watched file grew past its limit and the child was killed.
        case fileTooLarge
    }

    /// The ending and the output kept (both streams, in the order written).
    package struct Outcome: Sendable {
        package var ending: Ending
        package var output: Data
    }

    /// The child could not be started; `reason` is the system's.
    package struct LaunchError: Error {
        package var reason: String
    }

    /// Runs `executable` with `arguments` (standard input empty) within `limits`.
    /// `environment` is added to ckschema's own for the child (a token goes there, never
    /// into `arguments`, which a process listing shows).
    package static func run(_ executable: String, _ arguments: [String], limits: Limits,
                            removeOnTermination: [String] = [], environment: [String: String] = [:]) throws(LaunchError) -> Outcome {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw LaunchError(reason: String(cString: strerror(errno))) }
        let (readEnd, writeEnd) = (fds[0], fds[1])
        defer { close(readEnd) }

        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t? = nil
        var attributes: posix_spawnattr_t? = nil
        #else
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 2)
        posix_spawn_file_actions_addclose(&actions, readEnd)
        posix_spawn_file_actions_addclose(&actions, writeEnd)
        // A group of its own (pgid = the child's pid), so that one kill reaches its children.
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)

        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var pid: pid_t = 0
        var envp: [UnsafeMutablePointer<CChar>?] = []
        if !environment.isEmpty {
            let inherited = ProcessInfo.processInfo.environment.merging(environment) { _, added in added }
            envp = inherited.map { strdup("\($0.key)=\($0.value)") } + [nil]
        }
        defer { for p in envp { free(p) } }
        let rc = envp.isEmpty
            ? posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
            : posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        close(writeEnd)
        guard rc == 0 else { throw LaunchError(reason: String(cString: strerror(rc))) }

        Termination.arm(group: pid, files: removeOnTermination)
        defer { Termination.disarm() }
        let deadline = Date().addingTimeInterval(limits.seconds)
        var output = Data()
        var ending: Ending?
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var open = true
        while ending == nil {
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 { ending = .timedOut; break }
            if let (path, bytes) = limits.file, fileSize(path) > bytes { ending = .fileTooLarge; break }
            if open {
                var p = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
                let ready = poll(&p, 1, Int32(min(remaining, 0.2) * 1000) + 1)
                if ready > 0 {
                    let n = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
                    if n > 0 {
                        guard output.count + n <= limits.output else { ending = .outputTooLarge; break }
                        output.append(contentsOf: buffer[0..<n])
                    } else if n == 0 || errno != EINTR {
                        open = false
                    }
                }
                continue
            }
            // Output closed: wait for the exit, still within the deadline.
            var status: Int32 = 0
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid {
                return Outcome(ending: exitEnding(status), output: output)
            }
            if r < 0, errno != EINTR { return Outcome(ending: .exited(-1), output: output) }
            usleep(10_000)
        }
        kill(-pid, SIGKILL)
        kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        return Outcome(ending: ending ?? .timedOut, output: output)
    }

    private static func exitEnding(_ status: Int32) -> Ending {
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import as macros.
        let signal = status & 0x7F
        return signal == 0 ? .exited((status >> 8) & 0xFF) : .signalled(signal)
    }

    private static func fileSize(_ path: String) -> Int {
        var s = stat()
        guard stat(path, &s) == 0 else { return 0 }
        return Int(s.st_size)
    }

    /// What a signal handler may touch while a child runs: the group to kill and the files
    /// to remove, as C values set before the handlers are installed.
    private enum Termination {
        nonisolated(unsafe) static var group: pid_t = 0
        nonisolated(unsafe) static var files: [UnsafeMutablePointer<CChar>?] = []
        nonisolated(unsafe) static var previous: [sighandler_t?] = []
        static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

        static func arm(group pid: pid_t, files paths: [String]) {
            files = paths.map { strdup($0) }
            group = pid
            // A parent may start ckschema with these signals blocked (the mask survives exec);
            // unblocked here, or a terminated ckschema would wait on its child unkilled.
            var set = sigset_t()
            sigemptyset(&set)
            for s in signals { sigaddset(&set, s) }
            pthread_sigmask(SIG_UNBLOCK, &set, nil)
            previous = signals.map { s in
                signal(s) { sig in
                    if Termination.group > 0 { kill(-Termination.group, SIGKILL) }
                    for f in Termination.files { if let f { unlink(f) } }
                    // Then die of the same signal, as if no handler had been installed.
                    signal(sig, SIG_DFL)
                    raise(sig)
                }
            }
        }

        static func disarm() {
            for (s, handler) in zip(signals, previous) { signal(s, handler) }
            previous = []
            group = 0
            for f in files { free(f) }
            files = []
        }
    }
}
