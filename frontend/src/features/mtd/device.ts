import type { MtdDevice } from '@countinghouse/proto';

const KEY = 'countinghouse.hmrc-device-id';

/**
 * What this browser reports for HMRC's fraud prevention headers (WEB_APP_VIA_SERVER): a device id kept
 * in local storage (made once, never expires), the screen, the window, the time zone and the user agent.
 */
export function deviceData(): MtdDevice {
  let deviceId: string;
  try {
    deviceId = localStorage.getItem(KEY) ?? '';
    if (!/^[0-9a-f-]{36}$/i.test(deviceId)) {
      deviceId = crypto.randomUUID();
      localStorage.setItem(KEY, deviceId);
    }
  } catch {
    deviceId = crypto.randomUUID();
  }
  return {
    userAgent: navigator.userAgent,
    deviceId,
    screens: [
      {
        width: Math.max(1, Math.round(window.screen.width)),
        height: Math.max(1, Math.round(window.screen.height)),
        scalingFactor: window.devicePixelRatio || 1,
        colourDepth: Math.max(1, window.screen.colorDepth || 24),
      },
    ],
    windowSize: { width: Math.max(1, window.innerWidth), height: Math.max(1, window.innerHeight) },
    utcOffsetMinutes: -new Date().getTimezoneOffset(),
  };
}
