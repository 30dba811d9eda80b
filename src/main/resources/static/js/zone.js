// The browser's time zone, told to the server before it renders times: the allot_tz cookie (read by ViewerTimes)
// is kept equal to the zone the browser reports. It runs on the sign-in page too, so the first page after
// signing in is already in the viewer's zone. Loaded in <head> without defer: it must run before anything else.
(function () {
  'use strict';
  var zone;
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch (e) {
    zone = null;
  }
  if (zone && zone.length <= 64) {
    var cookie = 'allot_tz=' + encodeURIComponent(zone);
    if (document.cookie.split('; ').indexOf(cookie) < 0) {
      document.cookie = cookie + '; path=/; max-age=31536000; SameSite=Lax';
    }
  }
})();
