import FirestoreModel
import Testing

@Suite struct TimestampArithmeticTests {
    private func t(_ text: String) -> Timestamp { try! Timestamp(rfc3339: text) }

    @Test func advancesAcrossSecondsBothWaysAndClamps() {
        #expect(t("2024-01-01T00:00:00.999999999Z").advanced(nanoseconds: 1) == t("2024-01-01T00:00:01Z"))
        #expect(t("2024-01-01T00:00:00Z").advanced(nanoseconds: -1) == t("2023-12-31T23:59:59.999999999Z"))
        #expect(t("2024-01-31T00:00:00.5Z").advanced(bySeconds: -30 * 86_400, nanoseconds: -600_000_000) == t("2023-12-31T23:59:59.9Z"))
        #expect(t("9999-12-31T23:59:59Z").advanced(bySeconds: 10) == .latest)
        #expect(t("0001-01-01T00:00:01Z").advanced(bySeconds: -Int64.max) == .earliest)
    }

    @Test func theNextMicrosecondTruncatesFirst() {
        #expect(t("2024-01-01T00:00:00.353Z").nextMicrosecond == t("2024-01-01T00:00:00.353001Z"))
        #expect(t("2024-01-01T00:00:00.123456789Z").nextMicrosecond == t("2024-01-01T00:00:00.123457Z"))
        #expect(t("2024-01-01T00:00:00.999999Z").nextMicrosecond == t("2024-01-01T00:00:01Z"))
    }

    @Test func wallClockSecondsBecomeMicroseconds() {
        #expect(Timestamp(secondsSinceEpoch: 1_714_564_800.25) == t("2024-05-01T12:00:00.25Z"))
        #expect(Timestamp(secondsSinceEpoch: 0) == t("1970-01-01T00:00:00Z"))
    }
}
