import Foundation
import CKSchemaTesting

// The same measurement as Tests/CKSchemaTests/Testing/FakeCloudKitBenchmarkTests.swift, as an
// executable linked against the release-built library modules (Benchmarks/testing/bench.sh).
let schemaPath = CommandLine.arguments[1]

func trip(_ i: Int) -> CloudRecord {
    var r = CloudRecord(recordType: "Trip", recordName: "trip-\(i)", zoneName: "Journal")
    r["title"] = .string("Trip \(i) along the ridge")
    r["startedAt"] = .timestamp(Date(timeIntervalSince1970: 1_700_000_000 + Double(i)))
    r["distanceMeters"] = .double(Double(i) * 12.5)
    r["tags"] = ["alpine", "day"]
    r.encrypted["notes"] = .string("note \(i)")
    return r
}

/// The process's CPU time (user + system) so far: on a shared machine the wall time of a phase
/// includes other processes' turns, its CPU time does not.
func cpuSeconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

/// The phase's wall time; its CPU time is added to `cpu`.
func seconds(cpu: inout Double, _ body: () async throws -> Void) async rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    let startCPU = cpuSeconds()
    try await body()
    cpu += cpuSeconds() - startCPU
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func seconds(_ body: () async throws -> Void) async rethrows -> Double {
    var ignored = 0.0
    return try await seconds(cpu: &ignored, body)
}

/// A synchronous phase's wall time (the dictionary mock's).
func wallSeconds(_ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

/// The fake's phases. Run from a task the main thread waits for (not top-level `await`, whose
/// `dispatch_main` loop valgrind 3.19 cannot run): so `valgrind --tool=callgrind` can count
/// this benchmark's instructions, the figure a shared machine does not disturb.
struct FakeFigures: Sendable { var created = 0.0, save = 0.0, saveCPU = 0.0, changes = 0.0; var failures = 0, fetched = 0 }
let total = Int(ProcessInfo.processInfo.environment["CKSCHEMA_BENCH_RECORDS"] ?? "") ?? 50_000
func runFake() async throws -> FakeFigures {
    var f = FakeFigures()
    for _ in 0..<50 { f.created += try await seconds { _ = try FakeCloudKit(schema: schemaPath, environment: .production) } }
    let cloud = try FakeCloudKit(schema: schemaPath, environment: .production)
    let db = cloud.database(.private)
    _ = try await db.modifyRecordZones(saving: [CloudZone(name: "Journal")], deleting: [])
    f.save = try await seconds(cpu: &f.saveCPU) {
        for start in stride(from: 0, to: total, by: 400) {
            let batch = (start..<min(total, start + 400)).map { trip($0) }
            let (results, _) = try await db.modifyRecords(saving: batch, deleting: [])
            f.failures += results.values.filter { if case .failure = $0 { true } else { false } }.count
        }
    }
    _ = try await db.modifyRecordZones(saving: [CloudZone(name: "Archive")], deleting: [])
    for start in stride(from: 0, to: 10_000, by: 400) {
        let batch = (start..<start + 400).map { i -> CloudRecord in
            var r = trip(i)
            r.id.zoneName = "Archive"
            return r
        }
        _ = try await db.modifyRecords(saving: batch, deleting: [])
    }
    f.changes = try await seconds { f.fetched = try await db.recordZoneChanges(inZone: "Archive").modifications.count }
    return f
}
// The peer issue 33 names that runs here: an app-local `MockCKDatabase`, a dictionary keyed by
// record ID with a change-tag counter and no schema, rules or indexes (pointfreeco/sqlite-data's
// MockCloudDatabase is the other peer; it is `#if canImport(CloudKit)` over CKRecord, so it does
// not build on Linux). The same records, batches and fetch.
final class DictionaryMock {
    var records: [CloudRecord.ID: (record: CloudRecord, tag: Int)] = [:]
    var tag = 0
    func modifyRecords(saving: [CloudRecord]) -> [CloudRecord.ID: Result<CloudRecord, CloudKitError>] {
        var out: [CloudRecord.ID: Result<CloudRecord, CloudKitError>] = [:]
        for r in saving {
            tag += 1
            records[r.id] = (r, tag)
            out[r.id] = .success(r)
        }
        return out
    }
    func zoneChanges(_ zone: String) -> [CloudRecord] {
        records.values.filter { $0.record.id.zoneName == zone }.sorted { $0.tag < $1.tag }.map(\.record)
    }
}
let mock = DictionaryMock()
var mockFailures = 0
let mockSave = wallSeconds {
    for start in stride(from: 0, to: total, by: 400) {
        let batch = (start..<min(total, start + 400)).map { trip($0) }
        mockFailures += mock.modifyRecords(saving: batch).values.filter { if case .failure = $0 { true } else { false } }.count
    }
}
for i in 0..<10_000 {
    var r = trip(i)
    r.id.zoneName = "Archive"
    _ = mock.modifyRecords(saving: [r])
}
var mockFetched = 0
let mockChanges = wallSeconds { mockFetched = mock.zoneChanges("Archive").count }

/// The main thread waits on a semaphore while a task runs the fake.
final class Outcome: @unchecked Sendable { var figures: Result<FakeFigures, Error>? }
let outcome = Outcome()
let done = DispatchSemaphore(value: 0)
Task.detached {
    do { outcome.figures = .success(try await runFake()) } catch { outcome.figures = .failure(error) }
    done.signal()
}
done.wait()
let fake = try outcome.figures!.get()
print(String(format: "FakeCloudKit: create from Trailmark %.2f ms; save %d records in batches of 400: %.2f s (%.0f records/s, %d failed; CPU %.2f s, %.0f records per CPU-second); zone changes of %d records: %.3f s",
             fake.created / 50 * 1000, total, fake.save, Double(total) / fake.save, fake.failures, fake.saveCPU, Double(total) / fake.saveCPU, fake.fetched, fake.changes))
print(String(format: "dictionary mock: save %d records in batches of 400: %.3f s (%.0f records/s, %d failed); zone changes of %d records: %.4f s",
             total, mockSave, Double(total) / mockSave, mockFailures, mockFetched, mockChanges))
