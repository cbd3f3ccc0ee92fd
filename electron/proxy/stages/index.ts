/** Every stage type, registered in the order help texts list them. Import this once before building chains. */
import './delay.js';
import './rate.js';
import './window.js';
import './slowstart.js';
import './loss.js';
