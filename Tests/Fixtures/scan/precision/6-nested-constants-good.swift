import CloudKit

enum Schema {
    enum RecordType {
        static let place = "Place"
        static let trip = "Trip"
    }
    enum Place {
        static let name = "name"
        static let createdAt = "createdAt"
    }
}

struct MotionEvent {
    enum RecordKey: String {
        case title
        case notes
    }
}

func save() {
    let place = CKRecord(recordType: Schema.RecordType.place)
    place[Schema.Place.name] = "x"
    place[Schema.Place.createdAt] = Date()
    let trip = CKRecord(recordType: Schema.RecordType.trip)
    trip[MotionEvent.RecordKey.title.rawValue] = "t"
    trip.encryptedValues[MotionEvent.RecordKey.notes.rawValue] = "n"
}
