import QPlayModel

/// Tap versus hold on next/previous (docs/BEHAVIOUR.md, Tap versus hold). Nothing audible happens at `press`: a
/// press becomes a hold only when `tick` sees the tap threshold pass, and only then does
/// the scan start. The daemon calls `tick` at `nextDeadline`.
extension PlayerEngine {
    /// Records the press. A press while another is down replaces it (ending its scan).
    public mutating func press(_ button: Button, now: Duration, position: Double) -> EngineOutput {
        lastKnownPosition = position
        var output = EngineOutput()
        if press?.phase == .scanning {
            output.emit(.endScan)
            output.notify(.player)
        }
        autoReleased = nil
        press = ButtonPress(button: button, pressedAt: now, phase: .pending)
        return output
    }

    /// At the tap threshold: the scan starts (when something is loaded). At the maximum
    /// hold: the press ends itself.
    public mutating func tick(now: Duration, position: Double) -> EngineOutput {
        lastKnownPosition = position
        var output = EngineOutput()
        sleepTick(now: now, into: &output)
        guard var held = press else { return output }
        if held.phase == .pending, now >= held.pressedAt + configuration.tapThreshold {
            if isLoaded {
                scanStarts(at: position, into: &output)
                output.emit(.scan(rate: signedScanRate(held.button)))
                held.phase = .scanning
                output.notify(.player)
            } else {
                held.phase = .holding
            }
            press = held
        }
        if now >= held.pressedAt + configuration.maxHold {
            if held.phase == .scanning {
                output.emit(.endScan)
                output.notify(.player)
            }
            autoReleased = AutoReleasedPress(
                button: held.button, heldMilliseconds: configuration.maxHold.milliseconds)
            press = nil
        }
        return output
    }

    /// Ends a press. Shorter than the threshold: a tap (next: skip; previous: restart
    /// after `restartAfter` seconds, else the previous entry). Longer: a hold, whose scan
    /// ends here and playback goes on from where it got (`seek`). A release with no
    /// matching press is `badRequest`, except the late release of a press that already
    /// ended itself at the maximum hold, which reports that hold.
    public mutating func release(_ button: Button, now: Duration, position: Double) throws(EngineError)
        -> (action: ButtonAction, heldMilliseconds: Int, output: EngineOutput)
    {
        guard let held = press, held.button == button else {
            if let done = autoReleased, done.button == button {
                autoReleased = nil
                return (.seek, done.heldMilliseconds, EngineOutput())
            }
            throw .badRequest("release \(button.rawValue) without a press of it")
        }
        lastKnownPosition = position
        press = nil
        let heldFor = max(.zero, now - held.pressedAt)
        var output = EngineOutput()
        if held.phase == .pending, heldFor < configuration.tapThreshold {
            switch button {
            case .next:
                output = next(now: now, position: position)
                return (.skip, heldFor.milliseconds, output)
            case .previous:
                let action = goBack(position: position, into: &output)
                return (action, heldFor.milliseconds, output)
            }
        }
        switch held.phase {
        case .scanning:
            output.emit(.endScan)
            output.notify(.player)
        case .pending where isLoaded:
            // The tick at the threshold never came (a late timer): catch up with the
            // scan the hold stands for in one seek.
            let scanned = signedScanRate(button) * (heldFor - configuration.tapThreshold).seconds
            let target = clampedPosition(clampedPosition(position) + scanned)
            lastKnownPosition = target
            seekVisit(from: position, to: target, into: &output)
            output.emit(.seek(target))
            output.notify(.player)
        case .pending, .holding:
            break
        }
        return (.seek, heldFor.milliseconds, output)
    }

    func signedScanRate(_ button: Button) -> Double {
        button == .next ? configuration.scanRate : -configuration.scanRate
    }
}
