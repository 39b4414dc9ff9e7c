import Foundation
import Testing
import CKSchemaTesting

/// Benchmarks/testing/run.sh: FakeCloudKit's speed (issue 33's "Speed"), in process. Off in
/// the suite (`CKSCHEMA_BENCH=1` turns it on); it prints its figures, which
/// Benchmarks/RESULTS.md records.
@Suite(.serialized) struct FakeCloudKitBenchmarkTests {
    static let enabled = ProcessInfo.processInfo.environment["CKSCHEMA_BENCH"] == "1"
    static let schema = Paths.root + "/Schemas/development.yaml"

    static func trip(_ i: Int) -> CloudRecord {
        var r = CloudRecord(recordType: "Trip", recordName: "trip-\(i)", zoneName: "Journal")
        r["title"] = .string("Trip \(i) along the ridge")
        r["startedAt"] = .timestamp(Date(timeIntervalSince1970: 1_700_000_000 + Double(i)))
        r["distanceMeters"] = .double(Double(i) * 12.5)
        r["tags"] = ["alpine", "day"]
        r.encrypted["notes"] = .string("note \(i)")
        return r
    }

    static func seconds(_ body: () async throws -> Void) async rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try await body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    @Test(.enabled(if: enabled, "a benchmark: CKSCHEMA_BENCH=1 (Benchmarks/testing/run.sh)"))
    func speed() async throws {
        // Creating a fake from the Trailmark schema (the mean of 50).
        var created = 0.0
        for _ in 0..<50 { created += try await Self.seconds { _ = try FakeCloudKit(schema: Self.schema, environment: .production) } }
        let cloud = try FakeCloudKit(schema: Self.schema, environment: .production)
        let db = cloud.database(.private)
        _ = try await db.modifyRecordZones(saving: [CloudZone(name: "Journal")], deleting: [])
        // 50,000 records saved in 125 requests of 400.
        let total = Int(ProcessInfo.processInfo.environment["CKSCHEMA_BENCH_RECORDS"] ?? "") ?? 50_000
        var failures = 0
        let save = try await Self.seconds {
            for start in stride(from: 0, to: total, by: 400) {
                let batch = (start..<min(total, start + 400)).map { Self.trip($0) }
                let (results, _) = try await db.modifyRecords(saving: batch, deleting: [])
                failures += results.values.filter { if case .failure = $0 { true } else { false } }.count
            }
        }
        #expect(failures == 0)
        // A zone-changes fetch of 10,000 records, in a second zone.
        _ = try await db.modifyRecordZones(saving: [CloudZone(name: "Archive")], deleting: [])
        for start in stride(from: 0, to: 10_000, by: 400) {
            let batch = (start..<start + 400).map { i -> CloudRecord in
                var r = Self.trip(i)
                r.id.zoneName = "Archive"
                return r
            }
            _ = try await db.modifyRecords(saving: batch, deleting: [])
        }
        var fetched = 0
        let changes = try await Self.seconds { fetched = try await db.recordZoneChanges(inZone: "Archive").modifications.count }
        #expect(fetched == 10_000)
        print(String(format: "FakeCloudKit: create from Trailmark %.2f ms; save %d records in batches of 400: %.2f s (%.0f records/s); zone changes of %d records: %.3f s",
                     created / 50 * 1000, total, save, Double(total) / save, fetched, changes))
    }
}
