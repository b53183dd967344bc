import { configure } from '@testing-library/react';

// Screens are loaded lazily, as in the browser: on a busy machine the first render of a screen in
// a file waits for its module to be transformed, which can take longer than Testing Library's
// one-second default. What a test waits for must still appear; it only gets the time to.
configure({ asyncUtilTimeout: 5000 });
