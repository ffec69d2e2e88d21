import Testing

@testable import WeftPersistence
