import { useCallback, useEffect, useRef, useState } from 'react';

export const SMS_RESEND_SECONDS = 60;

/** A verification-code button lock: start() counts down from `seconds` to 0, then it unlocks. */
export function useCountdown(seconds: number = SMS_RESEND_SECONDS) {
  const [remaining, setRemaining] = useState(0);
  const timer = useRef<ReturnType<typeof setInterval> | null>(null);

  const stop = useCallback(() => {
    if (timer.current) clearInterval(timer.current);
    timer.current = null;
  }, []);

  const start = useCallback(() => {
    stop();
    setRemaining(seconds);
    timer.current = setInterval(() => {
      setRemaining((value) => {
        if (value <= 1) {
          stop();
          return 0;
        }
        return value - 1;
      });
    }, 1000);
  }, [seconds, stop]);

  const reset = useCallback(() => {
    stop();
    setRemaining(0);
  }, [stop]);

  useEffect(() => stop, [stop]);

  return { remaining, running: remaining > 0, start, reset };
}
