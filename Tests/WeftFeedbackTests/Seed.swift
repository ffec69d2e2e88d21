import Testing

@testable import WeftFeedback
