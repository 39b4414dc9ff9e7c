/// A CloudKit environment: development grows its schema as records arrive; production refuses.
public enum Environment: String, Sendable, Hashable, CaseIterable, Codable {
    case development, production
}
