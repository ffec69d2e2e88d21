import Testing

@testable import AppFeature
