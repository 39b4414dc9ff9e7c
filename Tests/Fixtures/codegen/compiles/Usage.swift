// Uses every part of the API generated for everything.yaml (module Everything): it must
// type-check without a warning (GeneratedCodeCompileTests).
import CloudKit
import Everything

typealias Trip = CloudSchema.Trip

func writes() throws -> Trip {
  let trip = Trip(recordName: "t1", in: CloudSchema.Zones.Journal())
  trip.title = "Summit"
  trip.title = nil
  trip.steps = 12
  trip.distance = 10.5
  trip.legacyScore = 3
  trip.ratio = 0.5
  trip.startedAt = Date()
  trip.blob = Data()
  trip.region = CLLocation(latitude: 46.5, longitude: 7.9)
  trip.cover = CKAsset(fileURL: URL(fileURLWithPath: "/tmp/cover.jpg"))
  trip.tags = ["summit"]
  trip.counts = [1, 2]
  trip.ratios = [0.5]
  trip.days = [Date()]
  trip.blobs = [Data()]
  trip.places = [CLLocation(latitude: 1, longitude: 2)]
  trip.photos = []
  trip.notes = "only in encryptedValues"
  trip.secretBytes = Data()
  trip.secretSpot = nil
  trip.CD_title = "kept as written"
  trip.`default` = "a keyword"
  trip.record_ = "a generated member's name"
  let companion = CloudSchema.Companion(recordName: "c1")
  trip.owner = CKRecord.Reference(record: companion.record, action: .none)
  trip.companions = [CKRecord.Reference(record: companion.record, action: .deleteSelf)]
  let again = try Trip(record: trip.record)
  _ = (again.recordName, again.createdAt, again.createdBy, again.modifiedAt, again.modifiedBy, again.etag)
  _ = CloudSchema.Box(recordName: "b1", in: CloudSchema.Zones.Archive())
  return trip
}

func queries(_ trip: Trip, token: CKServerChangeToken?) -> [Any] {
  let summit = Trip.Key.title == "Summit" && Trip.Key.steps > 10 && !(Trip.Key.code == "x")
  return [
    Trip.query(summit, sortedBy: [.ascending(Trip.Key.title), .descending(Trip.Key.createdAt)]),
    Trip.query(.all),
    Trip.query(Trip.Key.steps <= 5 && Trip.Key.steps >= 1 && Trip.Key.steps < 9 && Trip.Key.steps != 3),
    Trip.query(Trip.Key.tags.contains("summit")),
    Trip.query(Trip.Key.region.near(CLLocation(latitude: 1, longitude: 2), withinKilometers: 5)),
    Trip.query(Trip.Key.summary.containsTokens("ridge walk")),
    Trip.query(Trip.Key.code.beginsWith("A") && Trip.Key.rank.in(["a", "b"])),
    Trip.query(!Trip.Key.code.beginsWith("A") && !Trip.Key.tags.contains("x")),
    Trip.query(Trip.Key.recordName == trip.record.recordID),
    Trip.query(Trip.Key.owner == CKRecord.Reference(recordID: trip.record.recordID, action: .none)),
    Trip.query(Trip.Key.blob == Data() && Trip.Key.legacyScore == 3 && Trip.Key.startedAt > Date()),
    Trip.query(Trip.Key.createdAt > Date(), sortedBy: [.ascending(Trip.Key.label), .descending(Trip.Key.caption)]),
    Trip.query(Trip.Key.headline.containsTokens("x"), sortedBy: [.ascending(Trip.Key.distance)]),
    Trip.desiredKeys(Trip.Key.title),
    Trip.desiredKeys(Trip.Key.title, Trip.Key.tags),
    Trip.desiredKeys(Trip.Key.title, Trip.Key.startedAt, Trip.Key.owner),
    Trip.recentTrips(startedAt: .greaterThan(Date())),
    Trip.recentTrips(startedAt: .atMost(Date()), sortedBy: [.descending(Trip.Key.startedAt)]),
    Trip.tripsByStepsAndTag(steps: .atLeast(100), tags: .contains("summit")),
    Trip.allTrips(),
    Trip.titleSearch(title: "ridge"),
    Trip.tagged(),
    CloudSchema.Companion.companionsNamed(name: .in(["Ann", "Bo"])),
    CloudSchema.Predicate<CloudSchema.Box>.all,
    CloudSchema.Subscriptions.summitTrips(),
    CloudSchema.Subscriptions.journalChanges(),
    CloudSchema.Subscriptions.everything(),
    CloudSchema.Zones.Journal().fetchChanges(since: token),
    CloudSchema.Zones.Journal(ownerName: "_other").makeZone(),
    CloudSchema.Zones.Journal.capabilities,
    CloudSchema.Zones.Archive.databaseScope,
    Trip.Key.CD_title.name,
    Trip.Key.default.name,
    Trip.recordType,
  ]
}

/// CloudKit's schema refusals, read out of an error (a partial failure's per-item errors too).
func rejection(_ error: any Error) -> String? {
  let partial = CKError(.partialFailure, userInfo: [CKPartialErrorsByItemIDKey: [AnyHashable: any Error]()])
  let pure: CloudSchema.SchemaRejection? = CloudSchema.classify(
    code: CKError.Code.invalidArguments.rawValue, serverCode: 2006,
    message: "Cannot create new type cloudkit.share in production schema")
  guard let found = CloudSchema.classify(error) ?? CloudSchema.classify(partial) ?? pure else { return nil }
  switch found.kind {
  case .fieldNotDeployed, .typeNotDeployed: return [found.recordType, found.field, found.environment, found.fix].compactMap { $0 }.joined(separator: " ")
  case .notQueryable, .notSortable: return found.field.map { "\($0): \(found.fix) (\(found.message))" }
  }
}
