import CKSchema
import Foundation

extension Migrator.Options {
    /// The test hooks of `migrate apply`, read from the environment.
    ///
    /// For the interrupted and concurrent apply tests: CKSCHEMA_DEBUG_PAUSE=FILE:MS pauses MS
    /// milliseconds after each step of migration FILE (FILE:STEP:MS after step STEP only),
    /// inside the migration's transaction. For the crash tests: CKSCHEMA_DEBUG_CACHE_KB=N makes
    /// the page cache tiny, so a data step writes into the file before it commits and a kill
    /// leaves a hot journal.
    mutating func addDebugHooks(output out: FileHandle) {
        let environment = ProcessInfo.processInfo.environment
        if let spec = environment["CKSCHEMA_DEBUG_PAUSE"] {
            let parts = spec.split(separator: ":").map(String.init)
            if parts.count >= 2, let ms = Int(parts[parts.count - 1]) {
                let file = parts[0]
                let only = parts.count == 3 ? Int(parts[1]) : nil
                afterStep = { m, i in
                    guard m.fileName == file, only == nil || only == i + 1 else { return }
                    out.write(Data("paused after step \(i + 1) of \(m.fileName)\n".utf8))
                    usleep(useconds_t(ms * 1000))
                }
            }
        }
        if let kb = environment["CKSCHEMA_DEBUG_CACHE_KB"].flatMap({ Int($0) }) { cacheKilobytes = kb }
    }
}
