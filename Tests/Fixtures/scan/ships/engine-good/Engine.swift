import CloudKit

final class Engine: CKSyncEngineDelegate {
    var engine: CKSyncEngine!
    var stateSerialization: CKSyncEngine.State.Serialization?
    static let zone = CKRecordZone.ID(zoneName: "Journal")

    func start() {
        let container = CKContainer(identifier: "iCloud.com.example.Ships")
        let configuration = CKSyncEngine.Configuration(database: container.privateCloudDatabase, stateSerialization: stateSerialization, delegate: self)
        engine = CKSyncEngine(configuration)
    }

    func queue(_ name: String) {
        let id = CKRecord.ID(recordName: name, zoneID: Self.zone)
        engine.state.add(pendingRecordZoneChanges: [.saveRecord(id)])
    }

    func handleEvent(_ event: CKSyncEngine.Event, syncEngine: CKSyncEngine) async {
        switch event {
        case .stateUpdate(let update):
            do {
                let data = try JSONEncoder().encode(update.stateSerialization)
                UserDefaults.standard.set(data, forKey: "state")
            } catch {
                print("state not saved: \(error)")
            }
        case .sentRecordZoneChanges(let sent):
            for failure in sent.failedRecordSaves { print(failure.record.recordID, failure.error) }
        case .fetchedRecordZoneChanges(let fetched):
            for m in fetched.modifications { print(m.record.recordID) }
            for d in fetched.deletions { print(d.recordID) }
        default:
            break
        }
    }
}
